fn expansion() {
    let _ = {
        let (__tensor_expr_op0, __tensor_expr_op1) = (&m, &v);
        let __tensor_expr_context = ::tensor_expr::__private::expr::context_of(
            ::tensor_expr::__private::rules::rank::Strict,
            __tensor_expr_op0,
        );
        let __tensor_expr_node0 = ::tensor_expr::__private::expr::operand(
            __tensor_expr_context,
            __tensor_expr_op0,
        );
        let __tensor_expr_node1 = {
            use ::tensor_expr::__private::{
                access::{Contiguous, Operand},
                expr::{Context, TensorLeaf},
                rules::{
                    in_dims::{CannotPlace, PlacedFits},
                    NeverHolds,
                },
                Dim, One, Shape,
            };
            #[diagnostic::on_unimplemented(
                message = "`in_dims(.., [1])` cannot place shape `{X}` on dims [1] of shape `{Other}`",
                label = "placing `{X}` on dims [1] of `{Other}`",
                note = "the tuple needs one entry per dim of the operand (1 here), each less than the rank of the other operand, and each placed size must equal the size there or be 1"
            )]
            trait InDims<Other, X> {
                type Placed: Shape;
            }
            #[diagnostic::do_not_recommend]
            impl<Other: Shape, X, Verdict: NeverHolds> InDims<Other, X> for Verdict {
                type Placed = Other;
            }
            #[diagnostic::on_unimplemented(
                message = "`in_dims(.., [1])` does nothing here: it places `{X}` on `{Other}`, of the same rank",
                label = "the other operand of this `in_dims`'s own operation has the operand's rank",
                note = "`in_dims` places its operand on the other operand of the binary operation or function it is written in; to place it on a larger result, put that result in parentheses, as in `in_dims(n, [0]) + (n - d)`; with no placement to make, drop `in_dims`"
            )]
            trait SameRank<Other, X> {
                type Placed: Shape;
            }
            #[diagnostic::do_not_recommend]
            impl<Other: Shape, X, Verdict: NeverHolds> SameRank<Other, X> for Verdict {
                type Placed = Other;
            }
            trait Place<X> {
                type Placed: Shape;
            }
            #[diagnostic::do_not_recommend]
            impl<Other: Shape> Place<()> for Other
            where
                CannotPlace: InDims<Other, ()>,
            {
                type Placed = <CannotPlace as InDims<Other, ()>>::Placed;
            }
            #[diagnostic::do_not_recommend]
            impl<X0: Dim, O0: Dim> Place<(X0,)> for (O0,)
            where
                CannotPlace: SameRank<(O0,), (X0,)>,
            {
                type Placed = <CannotPlace as SameRank<(O0,), (X0,)>>::Placed;
            }
            #[diagnostic::do_not_recommend]
            impl<X0: Dim, O0: Dim, O1: Dim> Place<(X0,)> for (O0, O1)
            where
                (One, X0): PlacedFits<(O0, O1)>,
            {
                type Placed = <(One, X0) as PlacedFits<(O0, O1)>>::Placed;
            }
            #[diagnostic::do_not_recommend]
            impl<X0: Dim, O0: Dim, O1: Dim, O2: Dim> Place<(X0,)> for (O0, O1, O2)
            where
                (One, X0, One): PlacedFits<(O0, O1, O2)>,
            {
                type Placed = <(One, X0, One) as PlacedFits<(O0, O1, O2)>>::Placed;
            }
            #[diagnostic::do_not_recommend]
            impl<X0: Dim, O0: Dim, O1: Dim, O2: Dim, O3: Dim> Place<(X0,)>
            for (O0, O1, O2, O3)
            where
                (One, X0, One, One): PlacedFits<(O0, O1, O2, O3)>,
            {
                type Placed = <(
                    One,
                    X0,
                    One,
                    One,
                ) as PlacedFits<(O0, O1, O2, O3)>>::Placed;
            }
            #[diagnostic::do_not_recommend]
            impl<X0: Dim, O0: Dim, O1: Dim, O2: Dim, O3: Dim, O4: Dim> Place<(X0,)>
            for (O0, O1, O2, O3, O4)
            where
                (One, X0, One, One, One): PlacedFits<(O0, O1, O2, O3, O4)>,
            {
                type Placed = <(
                    One,
                    X0,
                    One,
                    One,
                    One,
                ) as PlacedFits<(O0, O1, O2, O3, O4)>>::Placed;
            }
            #[diagnostic::do_not_recommend]
            impl<
                X0: Dim,
                O0: Dim,
                O1: Dim,
                O2: Dim,
                O3: Dim,
                O4: Dim,
                O5: Dim,
            > Place<(X0,)> for (O0, O1, O2, O3, O4, O5)
            where
                (One, X0, One, One, One, One): PlacedFits<(O0, O1, O2, O3, O4, O5)>,
            {
                type Placed = <(
                    One,
                    X0,
                    One,
                    One,
                    One,
                    One,
                ) as PlacedFits<(O0, O1, O2, O3, O4, O5)>>::Placed;
            }
            #[diagnostic::do_not_recommend]
            impl<X0: Dim, X1: Dim, Other: Shape> Place<(X0, X1)> for Other
            where
                CannotPlace: InDims<Other, (X0, X1)>,
            {
                type Placed = <CannotPlace as InDims<Other, (X0, X1)>>::Placed;
            }
            #[diagnostic::do_not_recommend]
            impl<X0: Dim, X1: Dim, X2: Dim, Other: Shape> Place<(X0, X1, X2)> for Other
            where
                CannotPlace: InDims<Other, (X0, X1, X2)>,
            {
                type Placed = <CannotPlace as InDims<Other, (X0, X1, X2)>>::Placed;
            }
            #[diagnostic::do_not_recommend]
            impl<
                X0: Dim,
                X1: Dim,
                X2: Dim,
                X3: Dim,
                Other: Shape,
            > Place<(X0, X1, X2, X3)> for Other
            where
                CannotPlace: InDims<Other, (X0, X1, X2, X3)>,
            {
                type Placed = <CannotPlace as InDims<Other, (X0, X1, X2, X3)>>::Placed;
            }
            #[diagnostic::do_not_recommend]
            impl<
                X0: Dim,
                X1: Dim,
                X2: Dim,
                X3: Dim,
                X4: Dim,
                Other: Shape,
            > Place<(X0, X1, X2, X3, X4)> for Other
            where
                CannotPlace: InDims<Other, (X0, X1, X2, X3, X4)>,
            {
                type Placed = <CannotPlace as InDims<
                    Other,
                    (X0, X1, X2, X3, X4),
                >>::Placed;
            }
            #[diagnostic::do_not_recommend]
            impl<
                X0: Dim,
                X1: Dim,
                X2: Dim,
                X3: Dim,
                X4: Dim,
                X5: Dim,
                Other: Shape,
            > Place<(X0, X1, X2, X3, X4, X5)> for Other
            where
                CannotPlace: InDims<Other, (X0, X1, X2, X3, X4, X5)>,
            {
                type Placed = <CannotPlace as InDims<
                    Other,
                    (X0, X1, X2, X3, X4, X5),
                >>::Placed;
            }
            #[inline]
            fn place<'a, T, M, X, Other>(
                _context: Context<T, M>,
                operand: &'a X,
                _other: ::core::marker::PhantomData<Other>,
            ) -> TensorLeaf<'a, X::Element, <Other as Place<X::Shape>>::Placed>
            where
                X: Operand<T> + ?Sized,
                X::Layout: Contiguous,
                X::Element: 'a,
                Other: Place<X::Shape>,
            {
                TensorLeaf::new(Operand::elements(operand))
            }
            place(
                __tensor_expr_context,
                __tensor_expr_op1,
                ::tensor_expr::__private::expr::shape_of(
                    __tensor_expr_context,
                    &__tensor_expr_node0,
                ),
            )
        };
        let __tensor_expr_node2 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::add,
            __tensor_expr_node0,
            __tensor_expr_node1,
        );
        let __tensor_expr_placement = ::tensor_expr::__private::access::Stack;
        let __tensor_expr_placement = ::tensor_expr::__private::placement::join(
            __tensor_expr_placement,
            __tensor_expr_context,
            __tensor_expr_op0,
        );
        let __tensor_expr_placement = ::tensor_expr::__private::placement::join(
            __tensor_expr_placement,
            __tensor_expr_context,
            __tensor_expr_op1,
        );
        ::tensor_expr::__private::placement::evaluate(
            __tensor_expr_placement,
            __tensor_expr_node2,
        )
    };
}

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
                expr::{Context, Operand, TensorLeaf},
                rules::in_dims::PlacedFits, Dim, One, Shape,
            };
            #[diagnostic::on_unimplemented(
                message = "`in_dims(.., [1])` cannot place shape `{X}` on dims [1] of shape `{Self}`",
                label = "placing `{X}` on dims [1] of `{Self}`",
                note = "the tuple needs one entry per dim of the operand (1 here), each less than the rank of the other operand, and each placed size must equal the size there or be 1"
            )]
            trait InDims<X> {
                type Placed: Shape;
            }
            #[diagnostic::do_not_recommend]
            impl<X0: Dim, O0: Dim, O1: Dim> InDims<(X0,)> for (O0, O1)
            where
                (One, X0): PlacedFits<(O0, O1)>,
            {
                type Placed = <(One, X0) as PlacedFits<(O0, O1)>>::Placed;
            }
            #[diagnostic::do_not_recommend]
            impl<X0: Dim, O0: Dim, O1: Dim, O2: Dim> InDims<(X0,)> for (O0, O1, O2)
            where
                (One, X0, One): PlacedFits<(O0, O1, O2)>,
            {
                type Placed = <(One, X0, One) as PlacedFits<(O0, O1, O2)>>::Placed;
            }
            #[diagnostic::do_not_recommend]
            impl<X0: Dim, O0: Dim, O1: Dim, O2: Dim, O3: Dim> InDims<(X0,)>
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
            impl<X0: Dim, O0: Dim, O1: Dim, O2: Dim, O3: Dim, O4: Dim> InDims<(X0,)>
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
            > InDims<(X0,)> for (O0, O1, O2, O3, O4, O5)
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
            #[inline]
            fn place<'a, T, M, X, Other>(
                _context: Context<T, M>,
                operand: &'a X,
                _other: ::core::marker::PhantomData<Other>,
            ) -> TensorLeaf<'a, T, <Other as InDims<X::Shape>>::Placed>
            where
                X: Operand<T> + ?Sized,
                Other: InDims<X::Shape>,
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
        ::tensor_expr::__private::kernel::evaluate(__tensor_expr_node2)
    };
}

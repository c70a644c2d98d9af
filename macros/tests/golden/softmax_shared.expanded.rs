fn expansion() {
    let _ = {
        let (__tensor_expr_op0,) = (&x,);
        let __tensor_expr_context = ::tensor_expr::__private::expr::context_of(
            ::tensor_expr::__private::rules::rank::Numpy,
            __tensor_expr_op0,
        );
        let __tensor_expr_node0 = ::tensor_expr::__private::expr::operand(
            __tensor_expr_context,
            __tensor_expr_op0,
        );
        let __tensor_expr_node1 = ::tensor_expr::__private::expr::operand(
            __tensor_expr_context,
            __tensor_expr_op0,
        );
        let __tensor_expr_node2 = ::tensor_expr::__private::ops::reduce::reduction(
            __tensor_expr_context,
            ::tensor_expr::__private::ops::reduce::reductions::max,
            {
                use ::tensor_expr::__private::{
                    expr::{Context, Shaped},
                    rules::NeverHolds, Dim, One, Shape,
                };
                #[allow(dead_code)]
                #[diagnostic::on_unimplemented(
                    message = "`max` over axes [1] does not fit shape `{Operand}`",
                    label = "`max` over axes [1] of `{Operand}`",
                    note = "axes count from 0 at the outermost dim, or from -1 at the innermost; each must be a dim of the operand, and name a different dim than the others"
                )]
                trait Axes<Operand, Anchor = ()> {
                    type Kept;
                    type Output;
                }
                #[diagnostic::do_not_recommend]
                impl<Operand: Shape, Anchor, Verdict: NeverHolds> Axes<Operand, Anchor>
                for Verdict {
                    type Kept = Operand;
                    type Output = Operand;
                }
                trait Reduce<Anchor = ()> {
                    type Kept;
                    type Output;
                }
                #[diagnostic::do_not_recommend]
                impl<Anchor> Reduce<Anchor> for ()
                where
                    ::tensor_expr::__private::rules::CannotReduce: Axes<(), Anchor>,
                {
                    type Kept = <::tensor_expr::__private::rules::CannotReduce as Axes<
                        (),
                        Anchor,
                    >>::Kept;
                    type Output = <::tensor_expr::__private::rules::CannotReduce as Axes<
                        (),
                        Anchor,
                    >>::Output;
                }
                #[diagnostic::do_not_recommend]
                impl<A0: Dim> Reduce for (A0,)
                where
                    ::tensor_expr::__private::rules::CannotReduce: Axes<Self>,
                {
                    type Kept = <::tensor_expr::__private::rules::CannotReduce as Axes<
                        Self,
                    >>::Kept;
                    type Output = <::tensor_expr::__private::rules::CannotReduce as Axes<
                        Self,
                    >>::Output;
                }
                #[diagnostic::do_not_recommend]
                impl<A0: Dim, A1: Dim> Reduce for (A0, A1) {
                    type Kept = (A0, One);
                    type Output = (A0, One);
                }
                #[diagnostic::do_not_recommend]
                impl<A0: Dim, A1: Dim, A2: Dim> Reduce for (A0, A1, A2) {
                    type Kept = (A0, One, A2);
                    type Output = (A0, One, A2);
                }
                #[diagnostic::do_not_recommend]
                impl<A0: Dim, A1: Dim, A2: Dim, A3: Dim> Reduce for (A0, A1, A2, A3) {
                    type Kept = (A0, One, A2, A3);
                    type Output = (A0, One, A2, A3);
                }
                #[diagnostic::do_not_recommend]
                impl<A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim> Reduce
                for (A0, A1, A2, A3, A4) {
                    type Kept = (A0, One, A2, A3, A4);
                    type Output = (A0, One, A2, A3, A4);
                }
                #[diagnostic::do_not_recommend]
                impl<A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim, A5: Dim> Reduce
                for (A0, A1, A2, A3, A4, A5) {
                    type Kept = (A0, One, A2, A3, A4, A5);
                    type Output = (A0, One, A2, A3, A4, A5);
                }
                #[inline]
                #[allow(clippy::type_complexity)]
                fn axes<T, M, E: Shaped>(
                    _context: Context<T, M>,
                    _operand: &E,
                ) -> ::core::marker::PhantomData<
                    (<E::Shape as Reduce>::Kept, <E::Shape as Reduce>::Output),
                >
                where
                    E::Shape: Reduce,
                {
                    ::core::marker::PhantomData
                }
                axes(__tensor_expr_context, &__tensor_expr_node1)
            },
            __tensor_expr_node1,
        );
        let __tensor_expr_node3 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::sub,
            __tensor_expr_node0,
            __tensor_expr_node2,
        );
        let __tensor_expr_node4 = ::tensor_expr::__private::expr::map1(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::functions::exp,
            __tensor_expr_node3,
        );
        let __tensor_expr_node5 = ::tensor_expr::__private::expr::shared(
            __tensor_expr_context,
            __tensor_expr_node4,
        );
        let __tensor_expr_node6 = &__tensor_expr_node5;
        let __tensor_expr_node7 = &__tensor_expr_node5;
        let __tensor_expr_node8 = ::tensor_expr::__private::ops::reduce::reduction(
            __tensor_expr_context,
            ::tensor_expr::__private::ops::reduce::reductions::sum,
            {
                use ::tensor_expr::__private::{
                    expr::{Context, Shaped},
                    rules::NeverHolds, Dim, One, Shape,
                };
                #[allow(dead_code)]
                #[diagnostic::on_unimplemented(
                    message = "`sum` over axes [1] does not fit shape `{Operand}`",
                    label = "`sum` over axes [1] of `{Operand}`",
                    note = "axes count from 0 at the outermost dim, or from -1 at the innermost; each must be a dim of the operand, and name a different dim than the others"
                )]
                trait Axes<Operand, Anchor = ()> {
                    type Kept;
                    type Output;
                }
                #[diagnostic::do_not_recommend]
                impl<Operand: Shape, Anchor, Verdict: NeverHolds> Axes<Operand, Anchor>
                for Verdict {
                    type Kept = Operand;
                    type Output = Operand;
                }
                trait Reduce<Anchor = ()> {
                    type Kept;
                    type Output;
                }
                #[diagnostic::do_not_recommend]
                impl<Anchor> Reduce<Anchor> for ()
                where
                    ::tensor_expr::__private::rules::CannotReduce: Axes<(), Anchor>,
                {
                    type Kept = <::tensor_expr::__private::rules::CannotReduce as Axes<
                        (),
                        Anchor,
                    >>::Kept;
                    type Output = <::tensor_expr::__private::rules::CannotReduce as Axes<
                        (),
                        Anchor,
                    >>::Output;
                }
                #[diagnostic::do_not_recommend]
                impl<A0: Dim> Reduce for (A0,)
                where
                    ::tensor_expr::__private::rules::CannotReduce: Axes<Self>,
                {
                    type Kept = <::tensor_expr::__private::rules::CannotReduce as Axes<
                        Self,
                    >>::Kept;
                    type Output = <::tensor_expr::__private::rules::CannotReduce as Axes<
                        Self,
                    >>::Output;
                }
                #[diagnostic::do_not_recommend]
                impl<A0: Dim, A1: Dim> Reduce for (A0, A1) {
                    type Kept = (A0, One);
                    type Output = (A0, One);
                }
                #[diagnostic::do_not_recommend]
                impl<A0: Dim, A1: Dim, A2: Dim> Reduce for (A0, A1, A2) {
                    type Kept = (A0, One, A2);
                    type Output = (A0, One, A2);
                }
                #[diagnostic::do_not_recommend]
                impl<A0: Dim, A1: Dim, A2: Dim, A3: Dim> Reduce for (A0, A1, A2, A3) {
                    type Kept = (A0, One, A2, A3);
                    type Output = (A0, One, A2, A3);
                }
                #[diagnostic::do_not_recommend]
                impl<A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim> Reduce
                for (A0, A1, A2, A3, A4) {
                    type Kept = (A0, One, A2, A3, A4);
                    type Output = (A0, One, A2, A3, A4);
                }
                #[diagnostic::do_not_recommend]
                impl<A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim, A5: Dim> Reduce
                for (A0, A1, A2, A3, A4, A5) {
                    type Kept = (A0, One, A2, A3, A4, A5);
                    type Output = (A0, One, A2, A3, A4, A5);
                }
                #[inline]
                #[allow(clippy::type_complexity)]
                fn axes<T, M, E: Shaped>(
                    _context: Context<T, M>,
                    _operand: &E,
                ) -> ::core::marker::PhantomData<
                    (<E::Shape as Reduce>::Kept, <E::Shape as Reduce>::Output),
                >
                where
                    E::Shape: Reduce,
                {
                    ::core::marker::PhantomData
                }
                axes(__tensor_expr_context, &__tensor_expr_node7)
            },
            __tensor_expr_node7,
        );
        let __tensor_expr_node9 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::div,
            __tensor_expr_node6,
            __tensor_expr_node8,
        );
        let __tensor_expr_placement = ::tensor_expr::__private::access::Stack;
        let __tensor_expr_placement = ::tensor_expr::__private::placement::join(
            __tensor_expr_placement,
            __tensor_expr_context,
            __tensor_expr_op0,
        );
        ::tensor_expr::__private::placement::evaluate(
            __tensor_expr_placement,
            __tensor_expr_node9,
        )
    };
}

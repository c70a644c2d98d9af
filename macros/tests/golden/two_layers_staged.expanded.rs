fn expansion() {
    let _ = {
        let (__tensor_expr_stage0, __tensor_expr_stage0_placement) = {
            let (__tensor_expr_op0, __tensor_expr_op1, __tensor_expr_op2) = (
                &x,
                &w1,
                &b1,
            );
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
                __tensor_expr_op1,
            );
            let __tensor_expr_node2 = ::tensor_expr::__private::expr::matmul(
                __tensor_expr_context,
                __tensor_expr_node0,
                __tensor_expr_node1,
            );
            let __tensor_expr_node3 = ::tensor_expr::__private::expr::operand(
                __tensor_expr_context,
                __tensor_expr_op2,
            );
            let __tensor_expr_node4 = ::tensor_expr::__private::expr::map2(
                __tensor_expr_context,
                ::tensor_expr::__private::expr::operators::add,
                __tensor_expr_node2,
                __tensor_expr_node3,
            );
            let __tensor_expr_node5 = ::tensor_expr::__private::expr::map1(
                __tensor_expr_context,
                ::tensor_expr::__private::expr::functions::relu,
                __tensor_expr_node4,
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
            let __tensor_expr_placement = ::tensor_expr::__private::placement::join(
                __tensor_expr_placement,
                __tensor_expr_context,
                __tensor_expr_op2,
            );
            (
                ::tensor_expr::__private::placement::evaluate_stage(
                    __tensor_expr_placement,
                    __tensor_expr_node5,
                ),
                __tensor_expr_placement,
            )
        };
        ::tensor_expr::__private::placement::within_scratch_budget::<
            { ::tensor_expr::__private::placement::DEFAULT_SCRATCH_BUDGET },
            _,
        >((&__tensor_expr_stage0, ()));
        {
            let (__tensor_expr_op0, __tensor_expr_op1, __tensor_expr_op2) = (
                &__tensor_expr_stage0,
                &w2,
                &b2,
            );
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
                __tensor_expr_op1,
            );
            let __tensor_expr_node2 = ::tensor_expr::__private::expr::matmul(
                __tensor_expr_context,
                __tensor_expr_node0,
                __tensor_expr_node1,
            );
            let __tensor_expr_node3 = ::tensor_expr::__private::expr::operand(
                __tensor_expr_context,
                __tensor_expr_op2,
            );
            let __tensor_expr_node4 = ::tensor_expr::__private::expr::map2(
                __tensor_expr_context,
                ::tensor_expr::__private::expr::operators::add,
                __tensor_expr_node2,
                __tensor_expr_node3,
            );
            let __tensor_expr_placement = ::tensor_expr::__private::access::Stack;
            let __tensor_expr_placement = ::tensor_expr::__private::placement::join_placement(
                __tensor_expr_placement,
                __tensor_expr_stage0_placement,
            );
            let __tensor_expr_placement = ::tensor_expr::__private::placement::join(
                __tensor_expr_placement,
                __tensor_expr_context,
                __tensor_expr_op1,
            );
            let __tensor_expr_placement = ::tensor_expr::__private::placement::join(
                __tensor_expr_placement,
                __tensor_expr_context,
                __tensor_expr_op2,
            );
            ::tensor_expr::__private::placement::evaluate(
                __tensor_expr_placement,
                __tensor_expr_node4,
            )
        }
    };
}

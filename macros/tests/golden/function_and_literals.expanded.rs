fn expansion() {
    let _ = {
        let (__tensor_expr_op0, __tensor_expr_op1) = (&x, &v);
        let __tensor_expr_context = ::tensor_expr::__private::expr::context_of(
            ::tensor_expr::__private::rules::rank::Numpy,
            __tensor_expr_op0,
        );
        let __tensor_expr_node0 = ::tensor_expr::__private::expr::operand(
            __tensor_expr_context,
            __tensor_expr_op0,
        );
        let __tensor_expr_node1 = ::tensor_expr::__private::expr::IntLiteral::<
            { 2i128 },
        >;
        let __tensor_expr_node2 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::mul,
            __tensor_expr_node0,
            __tensor_expr_node1,
        );
        let __tensor_expr_node3 = ::tensor_expr::__private::expr::operand(
            __tensor_expr_context,
            __tensor_expr_op1,
        );
        let __tensor_expr_node4 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::sub,
            __tensor_expr_node2,
            __tensor_expr_node3,
        );
        let __tensor_expr_node5 = ::tensor_expr::__private::expr::map1(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::functions::relu,
            __tensor_expr_node4,
        );
        let __tensor_expr_node6 = ::tensor_expr::__private::expr::float_literal(
            __tensor_expr_context,
            4.0,
        );
        let __tensor_expr_node7 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::div,
            __tensor_expr_node5,
            __tensor_expr_node6,
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
            __tensor_expr_node7,
        )
    };
}

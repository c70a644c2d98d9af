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
        let __tensor_expr_node1 = ::tensor_expr::__private::expr::operand(
            __tensor_expr_context,
            __tensor_expr_op1,
        );
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

fn expansion() {
    let _ = ::tensor_expr::__private::placement::then(
        {
            let (__tensor_expr_op0, __tensor_expr_op1, __tensor_expr_op2) = (&x, &w, &b);
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
            ::tensor_expr::__private::placement::evaluate(
                __tensor_expr_placement,
                __tensor_expr_node5,
            )
        },
        |__tensor_expr_values| __tensor_expr_values.argmax::<1>(),
    );
}

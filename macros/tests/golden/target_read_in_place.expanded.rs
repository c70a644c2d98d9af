fn expansion() {
    let _ = {
        let (__tensor_expr_target,) = (
            {
                use ::tensor_expr::__private::access::Target as _;
                (acc).as_target()
            },
        );
        let __tensor_expr_context = ::tensor_expr::__private::expr::target_context(
            ::tensor_expr::__private::rules::rank::Numpy,
            &*__tensor_expr_target,
        );
        let __tensor_expr_node0 = ::tensor_expr::__private::expr::target_leaf(
            &*__tensor_expr_target,
        );
        let __tensor_expr_node1 = ::tensor_expr::__private::expr::float_literal(
            __tensor_expr_context,
            0.5,
        );
        let __tensor_expr_node2 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::mul,
            __tensor_expr_node0,
            __tensor_expr_node1,
        );
        let __tensor_expr_node3 = ::tensor_expr::__private::expr::float_literal(
            __tensor_expr_context,
            1.0,
        );
        let __tensor_expr_node4 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::add,
            __tensor_expr_node2,
            __tensor_expr_node3,
        );
        let __tensor_expr_placement = ::tensor_expr::__private::placement::target_placement(
            &*__tensor_expr_target,
        );
        {
            ::tensor_expr::__private::kernel::assign(
                    __tensor_expr_context,
                    __tensor_expr_target,
                    __tensor_expr_node4,
                    __tensor_expr_placement,
                )
                .1
        }
    };
}

fn expansion() {
    let _ = {
        let (__tensor_expr_op0, __tensor_expr_op1, __tensor_expr_op2) = (&a, &v, &b);
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
        let __tensor_expr_node3 = ::tensor_expr::__private::expr::shape_of(
            __tensor_expr_context,
            &__tensor_expr_node2,
        );
        let __tensor_expr_node4 = ::tensor_expr::__private::expr::operand(
            __tensor_expr_context,
            __tensor_expr_op1,
        );
        let __tensor_expr_node5 = ::tensor_expr::__private::expr::map1(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::functions::relu,
            __tensor_expr_node4,
        );
        let __tensor_expr_node6 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::sub,
            __tensor_expr_node3,
            &__tensor_expr_node5,
        );
        let __tensor_expr_node7 = ::tensor_expr::__private::expr::left_step(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::sub,
            __tensor_expr_node5,
        );
        let __tensor_expr_node8 = ::tensor_expr::__private::expr::shape_of(
            __tensor_expr_context,
            &__tensor_expr_node6,
        );
        let __tensor_expr_node9 = ::tensor_expr::__private::expr::operand(
            __tensor_expr_context,
            __tensor_expr_op2,
        );
        let __tensor_expr_node10 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::add,
            __tensor_expr_node8,
            &__tensor_expr_node9,
        );
        let __tensor_expr_node11 = ::tensor_expr::__private::expr::left_step(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::add,
            __tensor_expr_node9,
        );
        let __tensor_expr_node12 = ::tensor_expr::__private::expr::shape_of(
            __tensor_expr_context,
            &__tensor_expr_node10,
        );
        let __tensor_expr_node13 = ::tensor_expr::__private::expr::operand(
            __tensor_expr_context,
            __tensor_expr_op1,
        );
        let __tensor_expr_node14 = ::tensor_expr::__private::expr::float_literal(
            __tensor_expr_context,
            0.0,
        );
        let __tensor_expr_node15 = ::tensor_expr::__private::expr::float_literal(
            __tensor_expr_context,
            1.0,
        );
        let __tensor_expr_node16 = ::tensor_expr::__private::expr::map3(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::functions::clamp,
            __tensor_expr_node13,
            __tensor_expr_node14,
            __tensor_expr_node15,
        );
        let __tensor_expr_node17 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::sub,
            __tensor_expr_node12,
            &__tensor_expr_node16,
        );
        let __tensor_expr_node18 = ::tensor_expr::__private::expr::left_step(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::sub,
            __tensor_expr_node16,
        );
        let __tensor_expr_node19 = ::tensor_expr::__private::expr::shape_of(
            __tensor_expr_context,
            &__tensor_expr_node17,
        );
        let __tensor_expr_node20 = ::tensor_expr::__private::expr::operand(
            __tensor_expr_context,
            __tensor_expr_op0,
        );
        let __tensor_expr_node21 = ::tensor_expr::__private::expr::operand(
            __tensor_expr_context,
            __tensor_expr_op2,
        );
        let __tensor_expr_node22 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::mul,
            __tensor_expr_node20,
            __tensor_expr_node21,
        );
        let __tensor_expr_node23 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::add,
            __tensor_expr_node19,
            &__tensor_expr_node22,
        );
        let __tensor_expr_node24 = ::tensor_expr::__private::expr::left_step(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::add,
            __tensor_expr_node22,
        );
        let __tensor_expr_node25 = ::tensor_expr::__private::expr::shape_of(
            __tensor_expr_context,
            &__tensor_expr_node23,
        );
        let __tensor_expr_node26 = ::tensor_expr::__private::expr::float_literal(
            __tensor_expr_context,
            1.0,
        );
        let __tensor_expr_node27 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::add,
            __tensor_expr_node25,
            &__tensor_expr_node26,
        );
        let __tensor_expr_node28 = ::tensor_expr::__private::expr::left_step(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::add,
            __tensor_expr_node26,
        );
        let __tensor_expr_node29 = ::tensor_expr::__private::expr::shape_of(
            __tensor_expr_context,
            &__tensor_expr_node27,
        );
        let __tensor_expr_node30 = ::tensor_expr::__private::expr::operand(
            __tensor_expr_context,
            __tensor_expr_op1,
        );
        let __tensor_expr_node31 = ::tensor_expr::__private::expr::IntLiteral::<
            { 2i128 },
        >;
        let __tensor_expr_node32 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::div,
            __tensor_expr_node30,
            __tensor_expr_node31,
        );
        let __tensor_expr_node33 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::sub,
            __tensor_expr_node29,
            &__tensor_expr_node32,
        );
        let __tensor_expr_node34 = ::tensor_expr::__private::expr::left_step(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::sub,
            __tensor_expr_node32,
        );
        let __tensor_expr_node35 = ::tensor_expr::__private::expr::shape_of(
            __tensor_expr_context,
            &__tensor_expr_node33,
        );
        let __tensor_expr_node36 = ::tensor_expr::__private::expr::operand(
            __tensor_expr_context,
            __tensor_expr_op0,
        );
        let __tensor_expr_node37 = ::tensor_expr::__private::expr::operand(
            __tensor_expr_context,
            __tensor_expr_op1,
        );
        let __tensor_expr_node38 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::functions::max,
            __tensor_expr_node36,
            __tensor_expr_node37,
        );
        let __tensor_expr_node39 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::add,
            __tensor_expr_node35,
            &__tensor_expr_node38,
        );
        let __tensor_expr_node40 = ::tensor_expr::__private::expr::left_step(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::add,
            __tensor_expr_node38,
        );
        let __tensor_expr_node41 = ::tensor_expr::__private::expr::shape_of(
            __tensor_expr_context,
            &__tensor_expr_node39,
        );
        let __tensor_expr_node42 = ::tensor_expr::__private::expr::operand(
            __tensor_expr_context,
            __tensor_expr_op1,
        );
        let __tensor_expr_node43 = ::tensor_expr::__private::expr::operand(
            __tensor_expr_context,
            __tensor_expr_op0,
        );
        let __tensor_expr_node44 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::sub,
            __tensor_expr_node42,
            __tensor_expr_node43,
        );
        let __tensor_expr_node45 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::add,
            __tensor_expr_node41,
            &__tensor_expr_node44,
        );
        let __tensor_expr_node46 = ::tensor_expr::__private::expr::left_step(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::add,
            __tensor_expr_node44,
        );
        let __tensor_expr_node47 = ::tensor_expr::__private::expr::shape_of(
            __tensor_expr_context,
            &__tensor_expr_node45,
        );
        let __tensor_expr_node48 = ::tensor_expr::__private::expr::operand(
            __tensor_expr_context,
            __tensor_expr_op2,
        );
        let __tensor_expr_node49 = ::tensor_expr::__private::expr::map2(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::sub,
            __tensor_expr_node47,
            &__tensor_expr_node48,
        );
        let __tensor_expr_node50 = ::tensor_expr::__private::expr::left_step(
            __tensor_expr_context,
            ::tensor_expr::__private::expr::operators::sub,
            __tensor_expr_node48,
        );
        let __tensor_expr_node51 = ::tensor_expr::__private::expr::shape_of(
            __tensor_expr_context,
            &__tensor_expr_node49,
        );
        let __tensor_expr_node52 = ::tensor_expr::__private::expr::fold(
            __tensor_expr_context,
            __tensor_expr_node51,
            __tensor_expr_node2,
            (
                (
                    __tensor_expr_node7,
                    __tensor_expr_node11,
                    __tensor_expr_node18,
                    __tensor_expr_node24,
                ),
                (
                    __tensor_expr_node28,
                    __tensor_expr_node34,
                    __tensor_expr_node40,
                    __tensor_expr_node46,
                ),
                __tensor_expr_node50,
            ),
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
            __tensor_expr_node52,
        )
    };
}

// Fusion adaptation of the multi-member AST nodes, so that X3 fills them member by member.
#pragma once

#include "pdl/ast.hpp"

#include <boost/fusion/include/adapt_struct.hpp>

BOOST_FUSION_ADAPT_STRUCT(pdl::ast::Signed, signs, operand)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::Power, base, exponents)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::Unary, signs, operand)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::ProductOp, op, operand)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::Product, first, rest)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::SumOp, op, operand)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::Sum, first, rest)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::Call, function, args)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::Distribution, kind, args)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::PatternTerm, primary, repeat)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::Branch, probability, sequence)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::DistClause, role, distribution)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::ExprClause, role, value)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::ProblemSizeClause, shape, name, extents)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::TaskClause, name, runtime, processor)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::ArcClause, chain, volume)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::SubtaskBlock, kind, clauses)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::VariableDecl, name, value, upper)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::PhaseHead, kind, name)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::ConcatEntry, first, second, kind)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::MachineExpr, role, value)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::SegmentDecl, from, statements)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::NodeDecl, colon, statements)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::SizeofDecl, type, bytes)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::CollectiveCall, operation, volume)
BOOST_FUSION_ADAPT_STRUCT(pdl::ast::CollectiveDecl, operation, algorithm)

//! Reading a parsed query before it runs: every graph pattern it contains (inside `EXISTS`
//! too), so that one walk answers whether it calls SERVICE and which IRIs it names.

use spargebra::algebra::{
    AggregateExpression, Expression, GraphPattern, OrderExpression, PropertyPathExpression,
};
use spargebra::term::{GroundTerm, NamedNodePattern, TermPattern};

/// Calls `visit` on `p` and on every pattern beneath it, expressions' `EXISTS` included.
pub fn each_pattern(p: &GraphPattern, visit: &mut impl FnMut(&GraphPattern)) {
    visit(p);
    match p {
        GraphPattern::Bgp { .. } | GraphPattern::Path { .. } | GraphPattern::Values { .. } => {}
        GraphPattern::Join { left, right }
        | GraphPattern::Lateral { left, right }
        | GraphPattern::Union { left, right }
        | GraphPattern::Minus { left, right } => {
            each_pattern(left, visit);
            each_pattern(right, visit);
        }
        GraphPattern::LeftJoin {
            left,
            right,
            expression,
        } => {
            each_pattern(left, visit);
            each_pattern(right, visit);
            if let Some(e) = expression {
                each_exists(e, visit);
            }
        }
        GraphPattern::Filter { expr, inner } => {
            each_exists(expr, visit);
            each_pattern(inner, visit);
        }
        GraphPattern::Extend {
            inner, expression, ..
        } => {
            each_exists(expression, visit);
            each_pattern(inner, visit);
        }
        GraphPattern::OrderBy { inner, expression } => {
            each_pattern(inner, visit);
            for o in expression {
                match o {
                    OrderExpression::Asc(e) | OrderExpression::Desc(e) => each_exists(e, visit),
                }
            }
        }
        GraphPattern::Group {
            inner, aggregates, ..
        } => {
            each_pattern(inner, visit);
            for (_, a) in aggregates {
                if let AggregateExpression::FunctionCall { expr, .. } = a {
                    each_exists(expr, visit);
                }
            }
        }
        GraphPattern::Service { inner, .. }
        | GraphPattern::Graph { inner, .. }
        | GraphPattern::Project { inner, .. }
        | GraphPattern::Distinct { inner }
        | GraphPattern::Reduced { inner }
        | GraphPattern::Slice { inner, .. } => each_pattern(inner, visit),
    }
}

/// Visits the patterns of every `EXISTS` inside an expression.
fn each_exists(e: &Expression, visit: &mut impl FnMut(&GraphPattern)) {
    match e {
        Expression::Exists(p) => each_pattern(p, visit),
        Expression::NamedNode(_)
        | Expression::Literal(_)
        | Expression::Variable(_)
        | Expression::Bound(_) => {}
        Expression::Or(a, b)
        | Expression::And(a, b)
        | Expression::Equal(a, b)
        | Expression::SameTerm(a, b)
        | Expression::Greater(a, b)
        | Expression::GreaterOrEqual(a, b)
        | Expression::Less(a, b)
        | Expression::LessOrEqual(a, b)
        | Expression::Add(a, b)
        | Expression::Subtract(a, b)
        | Expression::Multiply(a, b)
        | Expression::Divide(a, b) => {
            each_exists(a, visit);
            each_exists(b, visit);
        }
        Expression::UnaryPlus(a) | Expression::UnaryMinus(a) | Expression::Not(a) => {
            each_exists(a, visit)
        }
        Expression::In(a, list) => {
            each_exists(a, visit);
            list.iter().for_each(|x| each_exists(x, visit));
        }
        Expression::If(a, b, c) => {
            each_exists(a, visit);
            each_exists(b, visit);
            each_exists(c, visit);
        }
        Expression::Coalesce(list) | Expression::FunctionCall(_, list) => {
            list.iter().for_each(|x| each_exists(x, visit))
        }
    }
}

/// Whether the pattern calls another server anywhere.
pub fn calls_service(p: &GraphPattern) -> bool {
    let mut found = false;
    each_pattern(p, &mut |p| {
        found |= matches!(p, GraphPattern::Service { .. })
    });
    found
}

/// Every IRI the pattern matches data against (in triple patterns, paths and VALUES, but not
/// graph names), once each, in order of first use.
pub fn matched_iris(p: &GraphPattern) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |iri: &str| {
        if !out.iter().any(|x| x == iri) {
            out.push(iri.to_string());
        }
    };
    each_pattern(p, &mut |p| match p {
        GraphPattern::Bgp { patterns } => {
            for t in patterns {
                term_iri(&t.subject, &mut add);
                if let NamedNodePattern::NamedNode(n) = &t.predicate {
                    add(n.as_str());
                }
                term_iri(&t.object, &mut add);
            }
        }
        GraphPattern::Path {
            subject,
            path,
            object,
        } => {
            term_iri(subject, &mut add);
            path_iris(path, &mut add);
            term_iri(object, &mut add);
        }
        GraphPattern::Values { bindings, .. } => {
            for term in bindings.iter().flatten().flatten() {
                if let GroundTerm::NamedNode(n) = term {
                    add(n.as_str());
                }
            }
        }
        _ => {}
    });
    out
}

fn term_iri(t: &TermPattern, add: &mut impl FnMut(&str)) {
    if let TermPattern::NamedNode(n) = t {
        add(n.as_str());
    }
}

fn path_iris(p: &PropertyPathExpression, add: &mut impl FnMut(&str)) {
    match p {
        PropertyPathExpression::NamedNode(n) => add(n.as_str()),
        PropertyPathExpression::Reverse(a)
        | PropertyPathExpression::ZeroOrMore(a)
        | PropertyPathExpression::OneOrMore(a)
        | PropertyPathExpression::ZeroOrOne(a) => path_iris(a, add),
        PropertyPathExpression::Sequence(a, b) | PropertyPathExpression::Alternative(a, b) => {
            path_iris(a, add);
            path_iris(b, add);
        }
        // A negated set matches what is not these IRIs: their absence explains nothing.
        PropertyPathExpression::NegatedPropertySet(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(text: &str) -> GraphPattern {
        match spargebra::SparqlParser::new().parse_query(text) {
            Ok(
                spargebra::Query::Select { pattern, .. } | spargebra::Query::Ask { pattern, .. },
            ) => pattern,
            other => panic!("not a SELECT or ASK: {other:?}"),
        }
    }

    #[test]
    fn iris_are_read_from_triples_paths_values_and_exists() {
        let p = pattern(
            "SELECT * WHERE { ?s <http://a/p> <http://a/o> . ?s <http://a/q>/<http://a/r> ?x \
             VALUES ?v { <http://a/v> } FILTER EXISTS { ?s <http://a/e> ?y } GRAPH <http://a/g> { ?s ?p ?o } }",
        );
        let mut found = matched_iris(&p);
        found.sort();
        assert_eq!(
            found,
            [
                "http://a/e",
                "http://a/o",
                "http://a/p",
                "http://a/q",
                "http://a/r",
                "http://a/v"
            ]
        );
    }
}

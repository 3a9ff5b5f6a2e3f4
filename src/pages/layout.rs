//! The frame every page shares: head, the search box with suggestions, the main region and
//! the footer, which names each loaded source's licence and attribution once. Markup is
//! built with maud, which escapes every value it is given.

use maud::{DOCTYPE, Markup, html};

use super::address;
use crate::resolve::Resolver;

/// The stylesheet, script and icon every page links to.
pub const STYLE: &str = include_str!("assets/style.css");
pub const SCRIPT: &str = include_str!("assets/app.js");
pub const ICON: &str = include_str!("assets/icon.svg");

/// What the frame needs besides the main content.
pub struct Frame<'a> {
    /// The `<title>` before " · ontoresolve".
    pub title: &'a str,
    /// The search box's text.
    pub query: &'a str,
    /// The CURIE (or IRI) of the concept a page is about, as `main[data-curie]`.
    pub concept: Option<&'a str>,
}

impl<'a> Frame<'a> {
    pub fn titled(title: &'a str) -> Frame<'a> {
        Frame {
            title,
            query: "",
            concept: None,
        }
    }
}

/// A whole page: `main` holds `body`, whose first heading should be the page's `h1`.
pub fn page(r: Option<&Resolver>, frame: &Frame<'_>, body: Markup) -> Markup {
    let title = if frame.title.is_empty() {
        "ontoresolve".to_string()
    } else {
        format!("{} · ontoresolve", frame.title)
    };
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                link rel="icon" href="/assets/icon.svg" type="image/svg+xml";
                link rel="stylesheet" href="/assets/style.css";
                script src="/assets/app.js" defer {}
            }
            body {
                header.site {
                    a.brand href="/" { "ontoresolve" }
                    (search_box(frame.query))
                }
                main data-curie=[frame.concept] { (body) }
                @if let Some(r) = r { (footer(r)) }
            }
        }
    }
}

fn search_box(query: &str) -> Markup {
    html! {
        form role="search" action="/search" method="get" {
            label.visually-hidden for="q" { "Search concepts by name or identifier" }
            input #q type="search" name="q" value=(query) placeholder="Name or identifier"
                autocomplete="off" aria-controls="suggestions" maxlength="1000";
            button type="submit" { "Search" }
            ul #suggestions hidden aria-label="Suggestions" {}
        }
    }
}

/// Each loaded source's licence and attribution: said here once, never inside the data.
fn footer(r: &Resolver) -> Markup {
    let m = r.manifest();
    html! {
        footer.site {
            p { "Index " code { (m.build_id) } ". Data from:" }
            ul {
                @for s in m.sources.iter().filter(|s| s.current) {
                    li {
                        a href=(address::source(&s.id)) { (s.title) }
                        " (release " (s.release) "), licence " (s.license)
                        @if !s.attribution.is_empty() { ". " (s.attribution) }
                    }
                }
                @if let Some(reg) = &m.registry.source {
                    li { "Prefixes: " (reg.title) " (release " (reg.release) "), licence " (reg.license) }
                }
            }
        }
    }
}

/// A button that copies `text`; hidden until the script shows it, since it needs the script.
pub fn copy_button(text: &str, what: &str) -> Markup {
    html! {
        button type="button" data-copy=(text) hidden aria-label=(format!("Copy the {what}")) { "Copy" }
    }
}

/// A link to a concept page when the concept is loaded, else the identifier as text.
pub fn concept_link(id: &str, label: Option<&str>, loaded: bool) -> Markup {
    html! {
        @if loaded {
            a.concept href=(address::concept(id, None)) { (id) }
        } @else {
            code.not-loaded title="not in a loaded source" { (id) }
        }
        @if let Some(label) = label { " " (label) }
    }
}

/// A link out, only for http(s) IRIs; anything else is shown as text.
pub fn outside(iri: &str) -> Markup {
    html! {
        @match address::outside_link(iri) {
            Some(href) => a href=(href) rel="noopener noreferrer nofollow" { (iri) },
            None => code { (iri) },
        }
    }
}

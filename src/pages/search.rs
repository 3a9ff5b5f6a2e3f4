//! The search page (`/search?q=`): every candidate `find_concepts` gives, in its order, with
//! match kind, basis and status; the source filter as checkboxes, obsolete concepts on
//! request, and pages through the tool's cursor. Also the suggestions the search box asks
//! for as one types (`/suggest?q=`).

use crate::model::WireName;
use maud::{Markup, html};
use serde::Deserialize;
use serde_json::{Value, json};

use super::address;
use super::concept::id_of;
use crate::mcp::dto::{Candidates, Envelope, FindArgs};
use crate::mcp::tools::{self, ToolError};
use crate::resolve::Resolver;

/// Candidates per search page.
pub const PAGE: u32 = 20;
/// Suggestions per keystroke.
const SUGGESTIONS: usize = 8;
/// The longest source id or cursor a search form can carry; longer ones are refused unread.
const MAX_FIELD_BYTES: usize = 256;

/// The search form's fields, as the query string carries them.
#[derive(Debug, Default, Deserialize)]
pub struct SearchForm {
    #[serde(default)]
    pub q: String,
    /// Source ids, each from a checked box (`source=mesh&source=hp`).
    #[serde(default)]
    pub source: Vec<String>,
    #[serde(default)]
    pub obsolete: Option<String>,
    #[serde(default)]
    pub cursor: Option<String>,
}

impl SearchForm {
    pub fn args(&self) -> FindArgs {
        FindArgs {
            text: self.q.clone(),
            sources: (!self.source.is_empty()).then(|| self.source.clone()),
            include_obsolete: self.obsolete.as_ref().map(|_| true),
            limit: Some(PAGE),
            cursor: self.cursor.clone(),
        }
    }

    /// The text as the page shows it again (search box, filter form): as typed when a search
    /// can take it, else nothing, so that a page never repeats megabytes it was sent.
    pub fn shown(&self) -> &str {
        if self.q.len() <= tools::MAX_TEXT_BYTES {
            &self.q
        } else {
            ""
        }
    }

    /// Why the form cannot be a search, without repeating what it holds: a field longer than
    /// any search takes.
    fn overlong(&self) -> Option<ToolError> {
        let field = if self.q.len() > tools::MAX_TEXT_BYTES {
            Some(("the text", self.q.len(), tools::MAX_TEXT_BYTES))
        } else if let Some(s) = self.source.iter().find(|s| s.len() > MAX_FIELD_BYTES) {
            Some(("a source id", s.len(), MAX_FIELD_BYTES))
        } else {
            (self.cursor.as_ref())
                .filter(|c| c.len() > MAX_FIELD_BYTES)
                .map(|c| ("the cursor", c.len(), MAX_FIELD_BYTES))
        };
        field.map(|(what, bytes, most)| {
            ToolError::new(
                tools::ErrorCode::LimitExceeded,
                format!("{what} is {bytes} bytes; a search takes at most {most}"),
                "Search for a name or identifier.",
            )
        })
    }

    /// The query string of the same search at another cursor.
    fn at(&self, cursor: &str) -> String {
        let mut out = format!("/search?q={}", address::query_value(&self.q));
        for s in &self.source {
            out.push_str(&format!("&source={}", address::query_value(s)));
        }
        if self.obsolete.is_some() {
            out.push_str("&obsolete=1");
        }
        out.push_str(&format!("&cursor={}", address::query_value(cursor)));
        out
    }
}

/// The page body: the filter form, then the answer or the tool's error.
pub fn body(
    r: &Resolver,
    form: &SearchForm,
    answer: Option<&Result<Envelope<Candidates>, ToolError>>,
) -> Markup {
    html! {
        h1 { "Search" }
        (filters(r, form))
        @match answer {
            None => p { "Type a name, a synonym or an identifier in the box above." },
            Some(Err(e)) => div.banner role="alert" { strong { (e.code.wire_name()) } ": " (e.message) " " (e.next_step) },
            Some(Ok(answer)) => (results(form, answer)),
        }
    }
}

fn filters(r: &Resolver, form: &SearchForm) -> Markup {
    let current = r.manifest().sources.iter().filter(|s| s.current);
    html! {
        form.filters action="/search" method="get" {
            input type="hidden" name="q" value=(form.shown());
            fieldset {
                legend { "Sources (none checked: all)" }
                @for s in current {
                    @let box_id = format!("source-{}", s.id);
                    input type="checkbox" id=(box_id) name="source" value=(s.id)
                        checked[form.source.iter().any(|x| x.eq_ignore_ascii_case(&s.id))];
                    label for=(box_id) { (s.id) } " "
                }
            }
            input type="checkbox" id="obsolete" name="obsolete" value="1" checked[form.obsolete.is_some()];
            label for="obsolete" { "Show obsolete concepts" }
            " "
            button type="submit" { "Apply" }
        }
    }
}

fn results(form: &SearchForm, answer: &Envelope<Candidates>) -> Markup {
    let found = &answer.result;
    let shown = found.candidates.len();
    html! {
        p {
            @if shown == 0 { "No candidates for " q { (form.q) } "." }
            @else {
                (shown) " of " (answer.total) " candidates for " q { (form.q) }
                @if found.obsolete_hidden > 0 { "; " (found.obsolete_hidden) " obsolete concepts hidden" }
                "."
            }
            @if found.ambiguous { " The name fits several concepts: check which one is meant." }
        }
        @if shown > 0 {
            ol #results {
                @for c in &found.candidates {
                    li {
                        @let id = id_of(c.concept.name.curie.as_deref(), c.concept.name.iri.as_deref());
                        a.concept href=(address::concept(&id, None)) { (id) }
                        " " (c.concept.name.label.as_deref().unwrap_or(""))
                        " " span.tag.match-kind { (c.match_kind.as_str()) }
                        " " span.tag { (c.concept.source) }
                        @if c.concept.status != "current" { " " span.tag { (c.concept.status.as_str()) } }
                        @if let Some(t) = &c.matched_text { br; span.muted { "matched “" (t) "”" } }
                        @if let Some(b) = &c.basis { br; span.muted { (b) } }
                    }
                }
            }
        }
        @if let Some(cursor) = &answer.cursor {
            p { a rel="next" href=(form.at(cursor)) { "Next page" } }
        }
        details {
            summary { "The SPARQL behind this answer" }
            pre { code { (answer.sparql) } }
            p { a href=(address::sparql(&answer.sparql)) { "Run the query" } }
        }
    }
}

/// Suggestions for a partly typed name or identifier: CURIEs starting with it, then
/// concepts whose names start with it.
pub fn suggestions(r: &Resolver, text: &str) -> Result<Value, ToolError> {
    let text = text.trim();
    if text.is_empty() || text.len() > 200 {
        return Ok(json!({ "suggestions": [] }));
    }
    let mut items: Vec<Value> = Vec::new();
    for curie in r.lexicon().complete_identifier(text, SUGGESTIONS)? {
        let label = match r.lexicon().lookup_id(&curie)?.first() {
            Some(m) => (r.concept(m.concept)?)
                .preferred_label()
                .map(|l| l.text.clone()),
            None => None,
        };
        let mut item = json!({ "curie": curie, "href": address::concept(&curie, None) });
        if let (Some(label), Some(map)) = (label, item.as_object_mut()) {
            map.insert("label".into(), Value::String(label));
        }
        items.push(item);
    }
    Ok(json!({ "suggestions": items }))
}

/// The search as the tool runs it.
pub fn run(r: &Resolver, form: &SearchForm) -> Option<Result<Envelope<Candidates>, ToolError>> {
    if let Some(refusal) = form.overlong() {
        return Some(Err(refusal));
    }
    (!form.q.trim().is_empty()).then(|| tools::find_concepts(r, &form.args()))
}

//! A streaming OBO 1.4 flat-file reader that emits the file as OBO-in-OWL triples.
//!
//! One pass, one line at a time: memory stays bounded by the longest line. Every error carries
//! the line and column where it was found.

use std::io::{BufRead, Read};
use std::path::Path;

use oxrdf::{Literal, NamedNode, NamedOrBlankNode, Term, Triple};

use super::error::{IngestError, Location};
use super::vocab::*;
use super::{StatedRelease, TripleSink};
use crate::model::{PrefixMap, Prefixes, obo_purl};

/// Longer lines are rejected rather than buffered: no real OBO clause comes near this.
const MAX_LINE_BYTES: usize = 1 << 20;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stanza {
    Header,
    Term,
    Typedef,
    /// `[Instance]` and unknown stanzas: read, checked for syntax, not translated.
    Skipped,
}

struct Reader<'a, S> {
    file: &'a Path,
    /// Prefixes the file declares with `idspace`; they win over the registry.
    idspaces: PrefixMap,
    prefixes: &'a dyn Prefixes,
    ontology: String,
    sink: &'a mut S,
    stanza: Stanza,
    subject: Option<NamedNode>,
    line_no: u64,
    header_done: bool,
    data_version: Option<String>,
    header_triples: Vec<(NamedNode, Term)>,
}

/// Reads OBO from `input`, sending triples to `sink`. Ids expand through the file's `idspace`
/// lines, then the built-in vocabularies, then `prefixes`, then the OBO PURL convention.
pub fn parse<S: TripleSink>(
    input: impl BufRead,
    file: &Path,
    prefixes: &dyn Prefixes,
    sink: &mut S,
) -> Result<(), IngestError> {
    let mut reader = Reader {
        file,
        idspaces: PrefixMap::default(),
        prefixes,
        ontology: String::new(),
        sink,
        stanza: Stanza::Header,
        subject: None,
        line_no: 0,
        header_done: false,
        data_version: None,
        header_triples: Vec::new(),
    };
    let mut input = input;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = (&mut input)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|source| IngestError::Io {
                file: file.to_path_buf(),
                source,
            })?;
        if n == 0 {
            break;
        }
        reader.line_no += 1;
        if buf.len() > MAX_LINE_BYTES {
            return Err(reader.error(0, format!("line longer than {MAX_LINE_BYTES} bytes")));
        }
        let line = std::str::from_utf8(&buf)
            .map_err(|e| reader.error(e.valid_up_to(), "invalid UTF-8"))?;
        reader.line(line)?;
    }
    reader.finish_header()
}

impl<S: TripleSink> Reader<'_, S> {
    fn error(&self, column: usize, message: impl Into<String>) -> IngestError {
        IngestError::Syntax {
            file: self.file.to_path_buf(),
            location: Location {
                line: self.line_no,
                column: column as u64 + 1,
            },
            message: message.into(),
        }
    }

    fn line(&mut self, raw: &str) -> Result<(), IngestError> {
        let line = raw.trim_end();
        let indent = line.len() - line.trim_start().len();
        let line = line.trim_start();
        if line.is_empty() || line.starts_with('!') {
            return Ok(());
        }
        if line.starts_with('[') {
            let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) else {
                return Err(self.error(indent, "stanza header is missing its closing ']'"));
            };
            self.finish_header()?;
            self.stanza = match name {
                "Term" => Stanza::Term,
                "Typedef" => Stanza::Typedef,
                _ => Stanza::Skipped,
            };
            self.subject = None;
            return Ok(());
        }
        let Some(colon) = line.find(':') else {
            return Err(self.error(indent, "expected 'tag: value'"));
        };
        let tag = &line[..colon];
        if tag.is_empty() || tag.contains(char::is_whitespace) {
            return Err(self.error(indent, format!("invalid tag '{tag}'")));
        }
        let value_start =
            colon + 1 + (line[colon + 1..].len() - line[colon + 1..].trim_start().len());
        let value = &line[value_start..];
        let column = indent + value_start;
        match self.stanza {
            Stanza::Header => self.header_clause(tag, value, column),
            Stanza::Term | Stanza::Typedef => self.frame_clause(tag, value, column),
            Stanza::Skipped => Ok(()),
        }
    }

    fn header_clause(&mut self, tag: &str, value: &str, column: usize) -> Result<(), IngestError> {
        match tag {
            "data-version" => self.data_version = Some(unquoted(value).0),
            "ontology" => self.ontology = unquoted(value).0,
            "idspace" => {
                let mut parts = value.split_whitespace();
                if let (Some(prefix), Some(uri)) = (parts.next(), parts.next()) {
                    self.idspaces.insert(crate::model::PrefixRule {
                        prefix: prefix.to_string(),
                        uri_prefix: uri.to_string(),
                    });
                }
            }
            "remark" => {
                let text = unquoted(value).0;
                self.header_triples.push((
                    named(RDFS_COMMENT),
                    Literal::new_simple_literal(text).into(),
                ));
            }
            "property_value" => {
                if let Some((p, o)) = self.property_value(value, column)? {
                    self.header_triples.push((p, o));
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn finish_header(&mut self) -> Result<(), IngestError> {
        if self.header_done {
            return Ok(());
        }
        self.header_done = true;
        let ontology = if self.ontology.is_empty() {
            "unnamed".to_string()
        } else {
            self.ontology.clone()
        };
        let iri = NamedNode::new(format!("{OBO}{ontology}.owl"))
            .map_err(|e| self.error(0, format!("invalid ontology name: {e}")))?;
        self.emit(iri.clone(), named(RDF_TYPE), named(OWL_ONTOLOGY).into())?;
        if let Some(version) = self.data_version.clone() {
            self.emit(
                iri.clone(),
                named(OWL_VERSION_INFO),
                Literal::new_simple_literal(&version).into(),
            )?;
            self.sink.stated_release(StatedRelease {
                value: version,
                property: "data-version",
            });
        }
        for (p, o) in std::mem::take(&mut self.header_triples) {
            self.emit(iri.clone(), p, o)?;
        }
        Ok(())
    }

    fn emit(&mut self, s: NamedNode, p: NamedNode, o: Term) -> Result<(), IngestError> {
        self.sink
            .triple(Triple::new(NamedOrBlankNode::from(s), p, o))
    }

    fn subject(&self, column: usize) -> Result<NamedNode, IngestError> {
        self.subject
            .clone()
            .ok_or_else(|| self.error(column, "clause before the stanza's 'id'"))
    }

    /// Expands an OBO id (`HP:0000118`, or a bare `part_of`) to an IRI.
    fn id_iri(&self, id: &str, column: usize) -> Result<NamedNode, IngestError> {
        let iri = if id.starts_with("http://") || id.starts_with("https://") {
            id.to_string()
        } else if let Some(iri) = self
            .idspaces
            .expand_known(id)
            .or_else(|| builtin_prefixes().expand_known(id))
            .or_else(|| self.prefixes.expand(id))
            .or_else(|| obo_purl(id))
        {
            iri
        } else if !id.contains(':') {
            format!("{OBO}{}#{id}", self.ontology)
        } else {
            return Err(self.error(column, format!("cannot expand identifier '{id}'")));
        };
        NamedNode::new(iri)
            .map_err(|e| self.error(column, format!("invalid identifier '{id}': {e}")))
    }

    fn literal_clause(
        &mut self,
        predicate: &str,
        text: String,
        column: usize,
    ) -> Result<(), IngestError> {
        let s = self.subject(column)?;
        self.emit(
            s,
            named(predicate),
            Literal::new_simple_literal(text).into(),
        )
    }

    fn frame_clause(&mut self, tag: &str, value: &str, column: usize) -> Result<(), IngestError> {
        match tag {
            "id" => self.id_clause(value, column),
            "name" => self.literal_clause(RDFS_LABEL, unquoted(value).0, column),
            "comment" => self.literal_clause(RDFS_COMMENT, unquoted(value).0, column),
            "namespace" => self.literal_clause(OIO_NAMESPACE, unquoted(value).0, column),
            "alt_id" => self.literal_clause(OIO_ALT_ID, first_token(value).to_string(), column),
            "xref" => self.literal_clause(OIO_DB_XREF, first_token(value).to_string(), column),
            "consider" => self.literal_clause(OIO_CONSIDER, first_token(value).to_string(), column),
            "created_by" => self.literal_clause(OIO_CREATED_BY, unquoted(value).0, column),
            "creation_date" => self.literal_clause(OIO_CREATION_DATE, unquoted(value).0, column),
            "def" => {
                let (text, _) = quoted(value).map_err(|(at, m)| self.error(column + at, m))?;
                self.literal_clause(IAO_DEFINITION, text, column)
            }
            "synonym" => self.synonym_clause(value, column),
            "is_a" if self.stanza == Stanza::Term => {
                self.link_clause(RDFS_SUBCLASS_OF, value, column)
            }
            "is_a" => self.link_clause(RDFS_SUBPROPERTY_OF, value, column),
            "replaced_by" => self.link_clause(IAO_REPLACED_BY, value, column),
            "is_obsolete" => self.obsolete_clause(value, column),
            "subset" => {
                let s = self.subject(column)?;
                let subset =
                    NamedNode::new(format!("{OBO}{}#{}", self.ontology, first_token(value)))
                        .map_err(|e| self.error(column, format!("invalid subset: {e}")))?;
                self.emit(s, named(OIO_IN_SUBSET), subset.into())
            }
            "property_value" => {
                let s = self.subject(column)?;
                match self.property_value(value, column)? {
                    Some((p, o)) => self.emit(s, p, o),
                    None => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }

    /// `id:` opens the stanza's subject, typed as a class or a property.
    fn id_clause(&mut self, value: &str, column: usize) -> Result<(), IngestError> {
        let id = first_token(value);
        if id.is_empty() {
            return Err(self.error(column, "empty id"));
        }
        let iri = self.id_iri(id, column)?;
        self.subject = Some(iri.clone());
        let class = if self.stanza == Stanza::Term {
            OWL_CLASS
        } else {
            OWL_OBJECT_PROPERTY
        };
        self.emit(iri.clone(), named(RDF_TYPE), named(class).into())?;
        self.emit(iri, named(OIO_ID), Literal::new_simple_literal(id).into())
    }

    /// `synonym: "text" SCOPE [xrefs]`; the scope picks the predicate.
    fn synonym_clause(&mut self, value: &str, column: usize) -> Result<(), IngestError> {
        let (text, rest) = quoted(value).map_err(|(at, m)| self.error(column + at, m))?;
        let predicate = match first_token(rest) {
            "EXACT" => OIO_EXACT_SYNONYM,
            "RELATED" => OIO_RELATED_SYNONYM,
            "BROAD" => OIO_BROAD_SYNONYM,
            "NARROW" => OIO_NARROW_SYNONYM,
            other => {
                let at = column + 1 + value.len() - rest.len();
                return Err(self.error(
                    at,
                    format!("synonym scope must be EXACT, RELATED, BROAD or NARROW, not '{other}'"),
                ));
            }
        };
        self.literal_clause(predicate, text, column)
    }

    /// A clause whose value is one required id: the subject links to it by `predicate`.
    fn link_clause(
        &mut self,
        predicate: &str,
        value: &str,
        column: usize,
    ) -> Result<(), IngestError> {
        let s = self.subject(column)?;
        let target = self.id_iri(
            required_token(value).map_err(|m| self.error(column, m))?,
            column,
        )?;
        self.emit(s, named(predicate), target.into())
    }

    /// `is_obsolete: true|false`, kept as a typed `owl:deprecated`.
    fn obsolete_clause(&mut self, value: &str, column: usize) -> Result<(), IngestError> {
        let flag = first_token(value);
        if !matches!(flag, "true" | "false") {
            return Err(self.error(
                column,
                format!("is_obsolete must be true or false, not '{flag}'"),
            ));
        }
        let s = self.subject(column)?;
        self.emit(
            s,
            named(OWL_DEPRECATED),
            Literal::new_typed_literal(flag, named(XSD_BOOLEAN)).into(),
        )
    }

    /// `property_value: PROP "text" xsd:type` or `property_value: PROP TARGET`.
    fn property_value(
        &self,
        value: &str,
        column: usize,
    ) -> Result<Option<(NamedNode, Term)>, IngestError> {
        let prop = first_token(value);
        if prop.is_empty() {
            return Err(self.error(column, "property_value without a property"));
        }
        let predicate = self.id_iri(prop, column)?;
        let rest = value[prop.len()..].trim_start();
        let at = column + value.len() - rest.len();
        if rest.starts_with('"') {
            let (text, after) = quoted(rest).map_err(|(i, m)| self.error(at + i, m))?;
            let datatype = first_token(after);
            let literal = match self
                .idspaces
                .expand_known(datatype)
                .or_else(|| builtin_prefixes().expand_known(datatype))
            {
                Some(dt) if !datatype.is_empty() && dt != XSD_STRING => match NamedNode::new(dt) {
                    Ok(dt) => Literal::new_typed_literal(text, dt),
                    Err(_) => Literal::new_simple_literal(text),
                },
                _ => Literal::new_simple_literal(text),
            };
            return Ok(Some((predicate, literal.into())));
        }
        let target = first_token(rest);
        if target.is_empty() {
            return Err(self.error(at, "property_value without a value"));
        }
        Ok(Some((predicate, self.id_iri(target, at)?.into())))
    }
}

/// Prefixes every OBO file may use without declaring them; `idspace` lines take precedence.
fn builtin_prefixes() -> &'static PrefixMap {
    static BUILTIN: std::sync::OnceLock<PrefixMap> = std::sync::OnceLock::new();
    BUILTIN.get_or_init(|| {
        PrefixMap::new(
            [
                ("xsd", "http://www.w3.org/2001/XMLSchema#"),
                ("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"),
                ("rdfs", "http://www.w3.org/2000/01/rdf-schema#"),
                ("owl", "http://www.w3.org/2002/07/owl#"),
                ("oboInOwl", OBO_IN_OWL),
                ("dc", "http://purl.org/dc/elements/1.1/"),
                ("dcterms", "http://purl.org/dc/terms/"),
                ("skos", SKOS),
                ("foaf", "http://xmlns.com/foaf/0.1/"),
            ]
            .map(|(prefix, uri)| crate::model::PrefixRule {
                prefix: prefix.to_string(),
                uri_prefix: uri.to_string(),
            }),
        )
    })
}

fn named(iri: &str) -> NamedNode {
    NamedNode::new_unchecked(iri)
}

/// The first whitespace-delimited token, without a trailing comment or qualifier block.
fn first_token(value: &str) -> &str {
    value
        .trim_start()
        .split(|c: char| c.is_whitespace() || c == '!' || c == '{')
        .next()
        .unwrap_or("")
}

/// The first token, which must be present.
fn required_token(value: &str) -> Result<&str, &'static str> {
    let token = first_token(value);
    if token.is_empty() {
        Err("expected an identifier")
    } else {
        Ok(token)
    }
}

/// An unquoted value up to its `!` comment or trailing `{qualifiers}`, with escapes resolved.
fn unquoted(value: &str) -> (String, &str) {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, next)) = chars.next() {
                    out.push(unescape(next));
                }
            }
            '!' => return (out.trim_end().to_string(), &value[i..]),
            '{' if value[i..].trim_end().ends_with('}') && out.ends_with(' ') => {
                return (out.trim_end().to_string(), &value[i..]);
            }
            _ => out.push(c),
        }
    }
    (out.trim_end().to_string(), "")
}

/// A double-quoted string with OBO escapes; returns it and the rest of the value, or the
/// offset and message of the error.
fn quoted(value: &str) -> Result<(String, &str), (usize, String)> {
    let Some(body) = value.strip_prefix('"') else {
        return Err((0, "expected a double-quoted string".into()));
    };
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some((_, next)) => out.push(unescape(next)),
                None => break,
            },
            '"' => return Ok((out, &body[i + 1..])),
            _ => out.push(c),
        }
    }
    Err((0, "unterminated quoted string".into()))
}

fn unescape(c: char) -> char {
    match c {
        'n' => '\n',
        't' => '\t',
        'W' => ' ',
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_drop_comments_and_qualifiers() {
        assert_eq!(first_token("HP:0000001 ! All"), "HP:0000001");
        assert_eq!(
            unquoted("Abnormal \\! thing ! comment").0,
            "Abnormal ! thing"
        );
        assert_eq!(unquoted("Foo {source=\"x\"}").0, "Foo");
        let (text, rest) = quoted("\"a \\\"b\\\"\" EXACT []").expect("quoted");
        assert_eq!(text, "a \"b\"");
        assert_eq!(rest, " EXACT []");
        assert!(quoted("\"open").is_err());
    }
}

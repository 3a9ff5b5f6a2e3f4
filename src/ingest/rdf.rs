//! Turtle, N-Triples and RDF/XML through oxigraph's streaming parsers.
//!
//! Turtle errors carry their own positions. RDF/XML errors carry a byte offset, which a
//! [`TrackedReader`] turns into a line and column.

use std::io::BufRead;
use std::path::Path;

use oxrdfxml::{RdfXmlParseError, RdfXmlParser};
use oxttl::{NTriplesParser, TurtleParseError, TurtleParser};

use super::error::{IngestError, Location};
use super::input::TrackedReader;
use super::{RdfSyntax, TripleSink};

pub fn parse<S: TripleSink>(
    input: impl BufRead,
    file: &Path,
    syntax: RdfSyntax,
    base_iri: Option<&str>,
    sink: &mut S,
) -> Result<(), IngestError> {
    let invalid_base = |e: oxiri::IriParseError| IngestError::Invalid {
        file: file.to_path_buf(),
        message: format!("invalid base IRI: {e}"),
    };
    match syntax {
        RdfSyntax::Turtle => {
            let mut parser = TurtleParser::new();
            if let Some(base) = base_iri {
                parser = parser.with_base_iri(base).map_err(invalid_base)?;
            }
            for triple in parser.for_reader(input) {
                sink.triple(triple.map_err(|e| turtle_error(file, e))?)?;
            }
        }
        RdfSyntax::NTriples => {
            for triple in NTriplesParser::new().for_reader(input) {
                sink.triple(triple.map_err(|e| turtle_error(file, e))?)?;
            }
        }
        RdfSyntax::RdfXml => {
            let mut parser = RdfXmlParser::new();
            if let Some(base) = base_iri {
                parser = parser.with_base_iri(base).map_err(invalid_base)?;
            }
            let (tracked, lines) = TrackedReader::new(input);
            let mut triples = parser.for_reader(tracked);
            while let Some(triple) = triples.next() {
                match triple {
                    Ok(triple) => sink.triple(triple)?,
                    Err(RdfXmlParseError::Io(source)) => {
                        return Err(IngestError::Io {
                            file: file.to_path_buf(),
                            source,
                        });
                    }
                    Err(RdfXmlParseError::Syntax(e)) => {
                        return Err(IngestError::Syntax {
                            file: file.to_path_buf(),
                            location: lines.locate(triples.buffer_position()),
                            message: e.to_string(),
                        });
                    }
                }
            }
        }
    }
    Ok(())
}

fn turtle_error(file: &Path, error: TurtleParseError) -> IngestError {
    match error {
        TurtleParseError::Io(source) => IngestError::Io {
            file: file.to_path_buf(),
            source,
        },
        TurtleParseError::Syntax(e) => {
            let start = e.location().start;
            IngestError::Syntax {
                file: file.to_path_buf(),
                location: Location {
                    line: start.line + 1,
                    column: start.column + 1,
                },
                message: e.message().to_string(),
            }
        }
    }
}

//! Which of a resource's download links to take: what each link holds (from its file name,
//! else the type the registry declares), and the order we read formats best in.

use crate::catalog::SourceKind;
use crate::registry::{Download, Resource};

/// A download format the build reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LinkFormat {
    Obo,
    ObographsJson,
    RdfXml,
    Turtle,
}

/// The order links are taken in, best first: our OBO reader keeps the most (synonym scopes,
/// xrefs, replacements), then OBO Graphs JSON, then OWL as RDF.
pub const FORMAT_ORDER: &str = "OBO, then OBO Graphs JSON, then OWL/RDF";

impl LinkFormat {
    /// The catalogue's `format` value.
    pub fn catalogue_format(self) -> &'static str {
        match self {
            LinkFormat::Obo => "obo",
            LinkFormat::ObographsJson => "obographs-json",
            LinkFormat::RdfXml => "rdfxml",
            LinkFormat::Turtle => "turtle",
        }
    }

    pub fn kind(self) -> SourceKind {
        match self {
            LinkFormat::Obo | LinkFormat::ObographsJson => SourceKind::Obo,
            LinkFormat::RdfXml | LinkFormat::Turtle => SourceKind::Owl,
        }
    }

    /// The file name extension, before any compression's.
    pub fn extension(self) -> &'static str {
        match self {
            LinkFormat::Obo => "obo",
            LinkFormat::ObographsJson => "json",
            LinkFormat::RdfXml => "owl",
            LinkFormat::Turtle => "ttl",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            LinkFormat::Obo => "OBO",
            LinkFormat::ObographsJson => "OBO Graphs JSON",
            LinkFormat::RdfXml => "OWL as RDF/XML",
            LinkFormat::Turtle => "Turtle",
        }
    }

    fn rank(self) -> u8 {
        match self {
            LinkFormat::Obo => 0,
            LinkFormat::ObographsJson => 1,
            LinkFormat::RdfXml | LinkFormat::Turtle => 2,
        }
    }
}

/// What a link holds, as far as its name and declared type tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkReading {
    Readable(LinkFormat),
    /// A format the build cannot read, named for the message.
    Unreadable(&'static str),
}

/// Reads a link's format from its file name (compression and query stripped), else from
/// the type the registry declares for it.
pub fn read_link(url: &str, declared: &str) -> LinkReading {
    let path = url
        .split(['?', '#'])
        .next()
        .unwrap_or(url)
        .to_ascii_lowercase();
    let name = path.rsplit('/').next().unwrap_or(&path);
    if name.ends_with(".zip") {
        return LinkReading::Unreadable("a ZIP archive");
    }
    if name.ends_with(".tar.gz") || name.ends_with(".tgz") || name.ends_with(".tar") {
        return LinkReading::Unreadable("a tar archive");
    }
    let name = crate::catalog::strip_compression(name);
    let by_name = [
        (".obo", LinkReading::Readable(LinkFormat::Obo)),
        (".json", LinkReading::Readable(LinkFormat::ObographsJson)),
        (".owl", LinkReading::Readable(LinkFormat::RdfXml)),
        (".rdf", LinkReading::Readable(LinkFormat::RdfXml)),
        (".ttl", LinkReading::Readable(LinkFormat::Turtle)),
        (".ofn", LinkReading::Unreadable("OWL functional syntax")),
        (".omn", LinkReading::Unreadable("OWL Manchester syntax")),
        (".owx", LinkReading::Unreadable("OWL/XML")),
        (".csv", LinkReading::Unreadable("a CSV table")),
        (".tsv", LinkReading::Unreadable("a TSV table")),
    ];
    if let Some((_, reading)) = by_name.iter().find(|(ext, _)| name.ends_with(ext)) {
        return *reading;
    }
    match declared.to_ascii_lowercase().as_str() {
        "obo" => LinkReading::Readable(LinkFormat::Obo),
        "obograph_json" | "json" => LinkReading::Readable(LinkFormat::ObographsJson),
        "owl" | "rdf" => LinkReading::Readable(LinkFormat::RdfXml),
        _ => LinkReading::Unreadable("a format its name and type do not tell"),
    }
}

/// The link taken, and why.
#[derive(Clone, Debug)]
pub struct Choice {
    pub download: Download,
    pub format: LinkFormat,
    pub why: String,
}

/// Why no link can be taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoLink {
    /// The registry lists no download.
    None,
    /// Every link is in a format the build cannot read: each with its format.
    Unreadable(Vec<(String, &'static str)>),
}

/// The best readable link: by [`FORMAT_ORDER`], then in the registry's order (the entry's own
/// links, then the OBO Foundry's, then OLS's).
pub fn choose(resource: &Resource) -> Result<Choice, NoLink> {
    if resource.downloads.is_empty() {
        return Err(NoLink::None);
    }
    let mut readable: Vec<(LinkFormat, &Download)> = Vec::new();
    let mut unreadable = Vec::new();
    for download in &resource.downloads {
        match read_link(&download.url, &download.declared) {
            LinkReading::Readable(format) => readable.push((format, download)),
            LinkReading::Unreadable(what) => unreadable.push((download.url.clone(), what)),
        }
    }
    // A stable sort keeps the registry's order within a format.
    readable.sort_by_key(|(format, _)| format.rank());
    let Some((format, download)) = readable.first() else {
        return Err(NoLink::Unreadable(unreadable));
    };
    let others = resource.downloads.len() - 1;
    let why = format!(
        "{} ({}), listed as {}; of {} link{}, taken by the order {FORMAT_ORDER}",
        download.url,
        format.name(),
        download.listed_as,
        others + 1,
        if others == 0 { "" } else { "s" },
    );
    Ok(Choice {
        download: (*download).clone(),
        format: *format,
        why,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::ListedAs;

    fn link(url: &str, listed_as: ListedAs, declared: &str) -> Download {
        Download {
            url: url.into(),
            listed_as,
            declared: declared.into(),
        }
    }

    #[test]
    fn formats_come_from_the_name_then_the_declared_type() {
        let cases = [
            (
                "http://x/doid.obo",
                "",
                LinkReading::Readable(LinkFormat::Obo),
            ),
            (
                "http://x/taxon.obo.gz?x=1",
                "",
                LinkReading::Readable(LinkFormat::Obo),
            ),
            (
                "http://x/go.json",
                "owl",
                LinkReading::Readable(LinkFormat::ObographsJson),
            ),
            (
                "http://x/pato.owl",
                "",
                LinkReading::Readable(LinkFormat::RdfXml),
            ),
            (
                "http://x/o.ofn",
                "owl",
                LinkReading::Unreadable("OWL functional syntax"),
            ),
            (
                "http://x/dump.zip",
                "obo",
                LinkReading::Unreadable("a ZIP archive"),
            ),
            (
                "http://x/download",
                "obo",
                LinkReading::Readable(LinkFormat::Obo),
            ),
        ];
        for (url, declared, expected) in cases {
            assert_eq!(read_link(url, declared), expected, "{url}");
        }
    }

    #[test]
    fn obo_is_taken_before_json_and_owl_whatever_the_listing_order() {
        let resource = Resource {
            downloads: vec![
                link("http://x/go.owl", ListedAs::OboFoundry, "owl"),
                link("http://x/go.json", ListedAs::OboFoundry, "obograph_json"),
                link("http://x/go.obo", ListedAs::OboFoundry, "obo"),
            ],
            ..Resource::default()
        };
        let choice = choose(&resource).unwrap();
        assert_eq!(choice.download.url, "http://x/go.obo");
        assert!(
            choice.why.contains("obofoundry.artifacts"),
            "{}",
            choice.why
        );
    }

    #[test]
    fn only_unreadable_links_are_named_with_their_formats() {
        let resource = Resource {
            downloads: vec![link("http://x/o.ofn", ListedAs::Own("download_owl"), "owl")],
            ..Resource::default()
        };
        assert_eq!(
            choose(&resource).unwrap_err(),
            NoLink::Unreadable(vec![("http://x/o.ofn".into(), "OWL functional syntax")])
        );
        assert_eq!(choose(&Resource::default()).unwrap_err(), NoLink::None);
    }
}

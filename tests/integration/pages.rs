//! Pages for people over real HTTP from the real binary: one address per concept in four
//! formats, the concept and search pages showing what the tools answer, hostile addresses
//! and hostile data shown as text, the token and its login cookie. The browser and the
//! RDF libraries are driven from Python (`tests/clients/pages_*.py`).

use std::process::Command;

use ontoresolve::mcp::dto::FindArgs;
use ontoresolve::mcp::tools;

use crate::http_client::{Page, page};
use crate::process::{Server, serve};
use crate::support::{
    build_into, default_index, default_index_dir, python_with, repo, scratch, single_source_catalog,
};

fn get(server: &Server, target: &str, headers: &[(&str, &str)]) -> Page {
    page("GET", server.1, target, headers, "")
}

fn accept(server: &Server, target: &str, media: &str) -> Page {
    get(server, target, &[("Accept", media)])
}

/// The server still serves its home page.
fn still_serving(server: &Server, after: &str) {
    let home = get(server, "/", &[]);
    assert_eq!(home.status, 200, "the server stopped serving after {after}");
}

fn default_server() -> Server {
    serve(&default_index_dir(), &["--rate-limit", "0"], &[])
}

#[test]
fn a_concept_answers_in_each_format_at_one_address() {
    let server = default_server();
    for (curie, iri) in [
        (
            "MONDO:0005148",
            "http://purl.obolibrary.org/obo/MONDO_0005148",
        ),
        ("MESH:D003924", "http://id.nlm.nih.gov/mesh/D003924"),
        ("HP:0000535", "http://purl.obolibrary.org/obo/HP_0000535"),
    ] {
        let at = format!("/concept/{curie}");
        let html = accept(&server, &at, "text/html");
        assert_eq!(html.status, 200, "{curie}: {}", html.body);
        assert!(
            html.header("content-type")
                .is_some_and(|t| t.starts_with("text/html"))
        );
        assert!(
            html.body.contains(&format!("data-curie=\"{curie}\"")),
            "{curie}"
        );
        assert_eq!(html.header("vary").as_deref(), Some("Accept"));
        let ld = accept(&server, &at, "application/ld+json");
        assert_eq!(ld.status, 200);
        let doc: serde_json::Value = serde_json::from_str(&ld.body).expect("JSON-LD is JSON");
        assert_eq!(doc["@id"], iri, "{curie}");
        assert!(doc["@context"].is_object(), "an inline context");
        let ttl = accept(&server, &at, "text/turtle");
        assert_eq!(ttl.status, 200);
        assert!(ttl.body.contains("rdfs:label"), "{curie}: {}", ttl.body);
        let json = accept(&server, &at, "application/json");
        let record: serde_json::Value = serde_json::from_str(&json.body).expect("JSON");
        assert_eq!(record["concept"]["curie"], curie);
        // A suffix beats Accept.
        let suffixed = accept(&server, &format!("{at}.ttl"), "application/json");
        assert!(
            suffixed
                .header("content-type")
                .is_some_and(|t| t.starts_with("text/turtle"))
        );
        let suffixed = accept(&server, &format!("{at}.jsonld"), "text/html");
        assert!(
            suffixed
                .header("content-type")
                .is_some_and(|t| t.starts_with("application/ld+json"))
        );
    }
    let at = "/concept/MONDO:0005148";
    let weighted = accept(&server, at, "text/html;q=0.1, text/turtle;q=0.9");
    assert!(
        weighted
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/turtle"))
    );
    let any = accept(&server, at, "*/*");
    assert!(
        any.header("content-type")
            .is_some_and(|t| t.starts_with("text/html"))
    );
    assert_eq!(accept(&server, at, "image/png").status, 406);
    let other = get(&server, "/concept/mondo:0005148.ttl?predicted=1", &[]);
    assert_eq!(other.status, 303, "a non-canonical spelling redirects");
    assert_eq!(
        other.header("location").as_deref(),
        Some("/concept/MONDO:0005148.ttl?predicted=1")
    );
    let iri = get(
        &server,
        "/concept/http://purl.obolibrary.org/obo/MONDO_0005148",
        &[],
    );
    assert_eq!(iri.status, 303);
    assert_eq!(
        iri.header("location").as_deref(),
        Some("/concept/MONDO:0005148")
    );
}

#[test]
fn a_pinned_address_shows_that_release_and_the_page_lists_both() {
    let server = default_server();
    let pinned = get(&server, "/concept/MONDO:0000030@2025-02-04", &[]);
    assert_eq!(pinned.status, 200);
    assert!(
        pinned
            .body
            .contains("<h1>sleep-related hypermotor epilepsy</h1>"),
        "the 2025-02-04 label"
    );
    let current = get(&server, "/concept/MONDO:0000030", &[]);
    assert!(
        current
            .body
            .contains("<h1>familial sleep-related hypermotor epilepsy</h1>"),
        "the current label"
    );
    assert!(
        current
            .body
            .contains("href=\"/concept/MONDO:0000030@2025-02-04\""),
        "the releases table links the pinned page"
    );
    let unloaded = get(&server, "/concept/MONDO:0000030@1999-01-01", &[]);
    assert_eq!(unloaded.status, 404, "a release that is not loaded");
}

#[test]
fn the_obsolete_term_page_links_every_replacement() {
    let server = default_server();
    let p = get(&server, "/concept/HP:0000535", &[]);
    assert_eq!(p.status, 200);
    assert!(p.body.contains("role=\"alert\""), "an obsolete banner");
    for replacement in ["HP:0045075", "HP:0045074"] {
        assert!(
            p.body.contains(&format!("href=\"/concept/{replacement}\"")),
            "{replacement} is a link: {}",
            p.body
        );
    }
}

#[test]
fn the_concept_page_shows_each_mapping_with_its_set_and_version() {
    let r = default_index();
    let server = default_server();
    let p = get(&server, "/concept/MONDO:0005148", &[]);
    let section = p
        .body
        .split("<section id=\"mappings\">")
        .nth(1)
        .expect("a mappings section");
    let row = section
        .split("<tr>")
        .find(|row| row.contains("href=\"/concept/MESH:D003924\""))
        .expect("MESH:D003924 is a linked mapping");
    assert!(row.contains("skos:exactMatch"), "{row}");
    let set = r
        .manifest()
        .mapping_sets_of("mondo-sssom")
        .next()
        .expect("the MONDO mapping set is loaded");
    assert!(row.contains(&format!("version {}", set.release)), "{row}");
    assert!(p.body.contains("id=\"parents\""), "parents");
    assert!(
        p.body.contains("href=\"/concept/MONDO:0005015\""),
        "its parent, diabetes mellitus"
    );
    let path = p
        .body
        .split("Path to the root: ")
        .nth(1)
        .and_then(|rest| rest.split("</p>").next())
        .expect("a path to the root");
    assert!(
        path.starts_with("<a class=\"concept-path\" href=\"/concept/MONDO:0000001\">"),
        "from the root, disease: {path}"
    );
    assert!(
        path.ends_with("href=\"/concept/MONDO:0005015\">diabetes mellitus</a>"),
        "down to the parent: {path}"
    );
    assert!(
        p.body.contains("/sparql?query="),
        "a link that runs the page's query"
    );
}

/// The CURIEs a search page links, in order.
fn listed(body: &str) -> Vec<String> {
    let Some(list) = body.split("<ol id=\"results\">").nth(1) else {
        return Vec::new();
    };
    let list = list.split("</ol>").next().unwrap_or("");
    list.split("<a class=\"concept\" href=\"/concept/")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_search_page_lists_the_tools_candidates_in_the_tools_order() {
    let r = default_index();
    let server = default_server();
    let p = get(&server, "/search?q=breast+cancer", &[]);
    assert_eq!(p.status, 200);
    let curies = listed(&p.body);
    let args = FindArgs {
        text: "breast cancer".into(),
        sources: None,
        include_obsolete: None,
        limit: Some(20),
        cursor: None,
    };
    let answer = tools::find_concepts(r, &args).expect("find_concepts");
    let from_tool: Vec<String> = answer
        .result
        .candidates
        .iter()
        .filter_map(|c| c.concept.name.curie.clone())
        .collect();
    assert_eq!(
        curies, from_tool,
        "the page shows the tool's candidates in its order"
    );
    let item = p
        .body
        .split("<li>")
        .find(|li| li.contains("href=\"/concept/MESH:D001943\""))
        .expect("MESH:D001943 is listed");
    assert!(item.contains("class=\"tag match-kind\""), "{item}");
    let only_mesh = get(&server, "/search?q=breast+cancer&source=mesh", &[]);
    assert!(
        listed(&only_mesh.body)
            .iter()
            .all(|c| c.starts_with("MESH:"))
    );
    assert!(
        only_mesh.body.contains("value=\"mesh\" checked"),
        "the box stays checked"
    );
}

#[test]
fn a_search_matching_very_many_concepts_comes_a_page_at_a_time() {
    let server = default_server();
    let first = get(&server, "/search?q=a", &[]);
    assert_eq!(first.status, 200);
    let curies = listed(&first.body);
    assert!(!curies.is_empty() && curies.len() <= 20, "{}", curies.len());
    let next = first
        .body
        .split("rel=\"next\" href=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("a next page")
        .replace("&amp;", "&");
    let second = get(&server, &next, &[]);
    assert_eq!(second.status, 200);
    let more = listed(&second.body);
    assert!(!more.is_empty(), "the next page lists more");
    assert_ne!(more.first(), curies.first());
}

#[test]
fn suggestions_offer_concepts_whose_names_start_with_the_typed_text() {
    let server = default_server();
    let p = get(&server, "/suggest?q=type%202%20diabetes%20mel", &[]);
    assert_eq!(p.status, 200);
    let body: serde_json::Value = serde_json::from_str(&p.body).expect("JSON");
    let curies: Vec<&str> = body["suggestions"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|s| s["curie"].as_str())
        .collect();
    assert!(curies.contains(&"MONDO:0005148"), "{curies:?}");
}

#[test]
fn hostile_addresses_get_a_specific_page_and_the_server_keeps_serving() {
    let server = default_server();
    let long = format!("/concept/HP:{}", "1".repeat(10_000));
    let long_search = format!("/search?q={}", "x".repeat(10_000));
    let cases: [(&str, &str, u16); 10] = [
        ("10 KB identifier", &long, 414),
        ("10 KB search", &long_search, 400),
        ("script", "/concept/%3Cscript%3Ealert(1)%3C/script%3E", 404),
        (
            "attribute breakout",
            "/concept/%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E",
            404,
        ),
        ("NUL", "/concept/HP:%0000535", 404),
        ("invalid UTF-8", "/concept/%FF%FE", 400),
        ("dot segments", "/concept/../../etc/passwd", 404),
        ("encoded slashes", "/concept/..%2F..%2Fetc%2Fpasswd", 404),
        ("unknown prefix", "/concept/NOPE:123", 404),
        ("no such page", "/nothing/here", 404),
    ];
    for (name, target, status) in cases {
        let p = get(&server, target, &[]);
        assert_eq!(p.status, status, "{name}: {}", p.body);
        assert!(
            !p.body.contains("<script>alert"),
            "{name}: markup came back live"
        );
        assert!(
            !p.body.contains("<img src=x"),
            "{name}: markup came back live"
        );
        assert!(
            p.header("content-security-policy").is_some(),
            "{name}: no CSP"
        );
        still_serving(&server, name);
    }
    let script = get(
        &server,
        "/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        &[],
    );
    assert!(
        script.body.contains("&lt;script&gt;alert(1)"),
        "shown as text"
    );
}

/// A source whose names, definitions and IRIs hold markup and script links.
const HOSTILE_TURTLE: &str = r#"@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
<http://example.org/xss/X1> a owl:Class ;
    rdfs:label "<script>alert('label')</script>" ;
    skos:definition "\"><img src=x onerror=alert(1)> see javascript:alert(2)" ;
    skos:altLabel "<b onmouseover=alert(3)>bold</b>" .
<http://example.org/xss/X2> a owl:Class ;
    rdfs:label "child '><svg onload=alert(4)>" ;
    rdfs:subClassOf <http://example.org/xss/X1> ;
    skos:exactMatch <javascript:alert(5)> .
<javascript:alert(6)> a owl:Class ;
    rdfs:label "an IRI that is a script" .
"#;

#[test]
fn hostile_labels_definitions_and_iris_are_shown_as_text() {
    let dir = scratch("pages-hostile");
    let file = dir.join("xss.ttl");
    std::fs::write(&file, HOSTILE_TURTLE).expect("write the hostile source");
    let catalog = single_source_catalog(
        &dir,
        "xss",
        "owl",
        &file,
        "release = \"1\"\nprefixes = [{ prefix = \"XSS\", uri_prefix = \"http://example.org/xss/\" }]",
    );
    let index = dir.join("index");
    build_into(&catalog, &index);
    let server = serve(&index, &["--rate-limit", "0"], &[]);
    let pages = [
        "/",
        "/concept/XSS:X1",
        "/concept/XSS:X2",
        "/concept/javascript:alert(6)",
        "/search?q=script",
        "/search?q=child",
        "/source/xss",
    ];
    for target in pages {
        let p = get(&server, target, &[]);
        assert!(p.status == 200 || p.status == 404, "{target}: {}", p.status);
        for live in [
            "<script>alert",
            "<img src=x",
            "<svg onload",
            "<b onmouseover",
            "href=\"javascript:",
        ] {
            assert!(
                !p.body.contains(live),
                "{target}: {live} came back as markup"
            );
        }
        let csp = p.header("content-security-policy").unwrap_or_default();
        assert!(
            csp.contains("default-src 'none'") && csp.contains("script-src 'self'"),
            "{target}: {csp}"
        );
    }
    let x1 = get(&server, "/concept/XSS:X1", &[]);
    assert_eq!(x1.status, 200);
    assert!(
        x1.body
            .contains("&lt;script&gt;alert('label')&lt;/script&gt;"),
        "the label as text"
    );
    let x2 = get(&server, "/concept/XSS:X2", &[]);
    assert!(
        x2.body.contains("javascript:alert(5)"),
        "the mapping target is shown"
    );
}

#[test]
fn with_a_token_no_page_or_format_is_reachable_without_it_and_the_login_cookie_works() {
    const TOKEN: &str = "pages-token-0123456789abcdef";
    let server = serve(
        &default_index_dir(),
        &["--rate-limit", "0"],
        &[("ONTORESOLVE_AUTH_TOKEN", TOKEN)],
    );
    let bearer = format!("Bearer {TOKEN}");
    for target in [
        "/",
        "/concept/MONDO:0005148",
        "/concept/MONDO:0005148.ttl",
        "/concept/MONDO:0005148.jsonld",
        "/search?q=asthma",
        "/suggest?q=asth",
        "/source/mondo",
        "/prefix/MONDO",
        "/sparql?query=ASK%7B%7D",
    ] {
        let refused = get(&server, target, &[]);
        assert_eq!(refused.status, 401, "{target} without the token");
        assert!(
            refused.body.contains("action=\"/login\""),
            "{target}: the login form"
        );
        assert!(
            !refused.body.contains("type 2 diabetes"),
            "{target}: no data leaks"
        );
        let with = get(&server, target, &[("Authorization", &bearer)]);
        assert_eq!(with.status, 200, "{target} with the bearer token");
    }
    assert_eq!(
        get(&server, "/login", &[]).status,
        200,
        "the form itself is open"
    );
    assert_eq!(get(&server, "/assets/style.css", &[]).status, 200);
    let form = "application/x-www-form-urlencoded";
    let wrong = page(
        "POST",
        server.1,
        "/login",
        &[("Content-Type", form)],
        "token=nope&next=%2Fsource%2Fmondo",
    );
    assert_eq!(wrong.status, 401);
    let body = format!("token={TOKEN}&next=%2Fsource%2Fmondo");
    let login = page("POST", server.1, "/login", &[("Content-Type", form)], &body);
    assert_eq!(login.status, 303);
    assert_eq!(login.header("location").as_deref(), Some("/source/mondo"));
    let cookie = login.header("set-cookie").expect("a cookie");
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    assert!(!cookie.contains(TOKEN), "the cookie is not the token");
    let session = cookie.split(';').next().expect("the cookie's value");
    let with_cookie = get(&server, "/concept/MONDO:0005148", &[("Cookie", session)]);
    assert_eq!(with_cookie.status, 200, "the login cookie opens the pages");
    let escape = page(
        "POST",
        server.1,
        "/login",
        &[("Content-Type", form)],
        &format!("token={TOKEN}&next=https%3A%2F%2Fevil.example%2F"),
    );
    assert_eq!(
        escape.header("location").as_deref(),
        Some("/"),
        "never sent elsewhere"
    );
    assert_eq!(
        get(&server, "/", &[("Host", "evil.example")]).status,
        403,
        "DNS rebinding"
    );
}

/// Runs one of the Python page clients against a fresh server.
fn python_client(script: &str, module: &str, extra: &[&str]) {
    let Some(python) = python_with(module) else {
        return;
    };
    let server = default_server();
    let base = format!("http://127.0.0.1:{}", server.1);
    let out = Command::new(python)
        .arg(repo().join("tests/clients").join(script))
        .arg(&base)
        .args(extra)
        .output()
        .expect("run the Python client");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{script} failed:\n{stdout}\n{stderr}");
    eprintln!("{stdout}");
}

#[test]
fn json_ld_and_turtle_parse_in_pyld_pyoxigraph_and_rdflib() {
    python_client("pages_linked_data.py", "pyld, pyoxigraph, rdflib", &[]);
}

#[test]
fn a_person_in_a_real_browser_searches_opens_a_gene_follows_a_parent_and_a_mapping() {
    if !std::path::Path::new("/usr/bin/chromedriver").is_file() {
        crate::support::skip(
            crate::support::Missing::Client,
            "Chromium's driver is not installed at /usr/bin/chromedriver (run scripts/setup-clients)",
        );
        return;
    }
    let shots = scratch("pages-browser");
    let shots = shots.to_string_lossy().into_owned();
    python_client("pages_browser.py", "selenium, PIL", &[&shots]);
}

#[test]
fn a_60_kb_address_or_search_gets_a_page_no_larger_than_for_a_short_one() {
    let server = default_server();
    let big = "y".repeat(60_000);
    // (hostile address, the same page for a short input)
    let cases = [
        (format!("/search?q={big}"), "/search?q=yyyy".to_string()),
        (
            format!("/search?q=yyyy&source={big}"),
            "/search?q=yyyy&source=yyyy".to_string(),
        ),
        (format!("/concept/HP:{big}"), "/concept/HP:yyyy".to_string()),
        (format!("/concept/{big}"), "/concept/yyyy".to_string()),
        (format!("/source/{big}"), "/source/yyyy".to_string()),
        (format!("/prefix/{big}"), "/prefix/yyyy".to_string()),
        (format!("/{big}"), "/yyyy".to_string()),
        (
            format!("/sparql?query={big}"),
            "/sparql?query=yyyy".to_string(),
        ),
    ];
    for (hostile, short) in &cases {
        let long_page = get(&server, hostile, &[]);
        let short_page = get(&server, short, &[]);
        let what = &short[..short.len().min(40)];
        assert!(long_page.status >= 400, "{what}: {}", long_page.status);
        assert!(
            long_page.body.len() <= short_page.body.len(),
            "{what}: {} bytes for 60 KB, {} for a short input",
            long_page.body.len(),
            short_page.body.len()
        );
        assert!(!long_page.body.contains(&"y".repeat(300)), "{what}: echoed");
        still_serving(&server, what);
    }
}

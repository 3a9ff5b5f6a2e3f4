//! `ontoresolve train`: fits the confidence model from the training sets of the corpora in a
//! data directory, deterministically (the same inputs give the same bytes), and writes the
//! model file. Every example is asked of the serving code (`rows`); the model is fitted on
//! four documents in five and calibrated, and its mention threshold chosen, on the fifth.
//! The development sets are only reported on, with `--ablation` each feature switched off.

mod corpus;
mod eval;
mod learn;
mod ontology;
mod rows;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use ontoresolve::index::confidence::{CorpusRecord, HeldOut, LearnedName, MODEL_FORMAT, ModelFile};
use ontoresolve::resolve::confidence::fit::{FeatureMask, Row, calibrate, fit};
use ontoresolve::resolve::confidence::{ConfidenceModel, Dense, Feature, Scope};
use ontoresolve::resolve::{Resolver, name_key};
use sha2::{Digest, Sha256};

use corpus::{Document, Group, MeshGroups, Part, read_pubtator};
use eval::{Calibration, best_threshold, concept_scores, reading_calibration};
use rows::{Corpus, MeshIds, Reading, Searches};

/// The corpora training reads, relative to the data directory.
const NCBI_TRAIN: &str = "corpora/ncbi-disease/NCBItrainset_corpus.txt";
const NCBI_DEVELOP: &str = "corpora/ncbi-disease/NCBIdevelopset_corpus.txt";
const BC5CDR_TRAIN: &str = "corpora/bc5cdr/CDR_TrainingSet.PubTator.txt";
const BC5CDR_DEVELOP: &str = "corpora/bc5cdr/CDR_DevelopmentSet.PubTator.txt";
const NCBI_CITATION: &str = "Dogan RI, Leaman R, Lu Z. NCBI disease corpus: a resource for disease name recognition and concept normalization. J Biomed Inform 47:1-10 (2014)";
const BC5CDR_CITATION: &str = "Li J, Sun Y, Johnson RJ, et al. BioCreative V CDR task corpus: a resource for chemical disease relation extraction. Database 2016:baw068 (2016)";

#[derive(clap::Args)]
pub struct Options {
    /// An index built from the bundled catalogue (its own model is not used).
    #[arg(long, env = "ONTORESOLVE_INDEX", default_value = "index")]
    pub index: PathBuf,
    /// The shared data directory holding `corpora/`.
    #[arg(long, default_value = "../shared/data")]
    pub data: PathBuf,
    /// Where the MeSH tables are, for the groups the corpora annotate.
    #[arg(long, default_value = "ontologies")]
    pub mesh: PathBuf,
    /// The model file to write.
    #[arg(long, short, default_value = "ontologies/confidence-model.toml")]
    pub output: PathBuf,
    /// Also refit with each feature switched off and print what that does on the
    /// development sets.
    #[arg(long)]
    pub ablation: bool,
    /// Write the first answers stated at 0.9 or more that are wrong, on the training
    /// documents set aside to calibrate, here (TSV: text, gold, answer, confidence, basis).
    #[arg(long)]
    pub misses: Option<PathBuf>,
}

/// One corpus's training and development sets, searched: the training set in parts, each
/// part with the names learned from the other fitting part (the part set aside, and the
/// development set, with every name learned).
struct Sets {
    train: Corpus,
    develop: Corpus,
    train_searches: Vec<Searches>,
    develop_searches: Searches,
}

/// Which names each part of the training sets is searched with.
struct LearnedByPart {
    from_a: Vec<LearnedName>,
    from_b: Vec<LearnedName>,
}

impl LearnedByPart {
    /// The names a document of `part` meets: never its own part's.
    fn for_part(&self, part: Part) -> Vec<LearnedName> {
        match part {
            Part::FitA => self.from_b.clone(),
            Part::FitB => self.from_a.clone(),
            Part::Calibrate => self.all(),
        }
    }

    /// Every name learned from the fitting parts, sorted, each once (summed over parts).
    fn all(&self) -> Vec<LearnedName> {
        let mut merged: BTreeMap<(String, String, String), u32> = BTreeMap::new();
        for n in self.from_a.iter().chain(&self.from_b) {
            let key = (name_key(&n.name), n.concept.clone(), n.corpus.clone());
            *merged.entry(key).or_default() += n.mentions;
        }
        let mut out: Vec<LearnedName> = Vec::new();
        for n in self.from_a.iter().chain(&self.from_b) {
            let key = (name_key(&n.name), n.concept.clone(), n.corpus.clone());
            if let Some(mentions) = merged.remove(&key) {
                out.push(LearnedName {
                    mentions,
                    ..n.clone()
                });
            }
        }
        out.sort_by(|a, b| (name_key(&a.name), &a.concept).cmp(&(name_key(&b.name), &b.concept)));
        out
    }
}

/// The resolver's model: these candidate weights and learned names, no mention model yet.
fn weigh_with(r: &mut Resolver, candidate: &Dense, names: Vec<LearnedName>) {
    let mut model = ConfidenceModel::new(candidate.clone(), Dense::zero(), 0.5);
    model.learn(names);
    r.set_confidence_model(Some(model));
}

const PARTS: [Part; 3] = [Part::FitA, Part::FitB, Part::Calibrate];

pub fn run(options: Options) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let mut r = Resolver::open_unweighed(&options.index)
        .with_context(|| format!("opening the index {}", options.index.display()))?;
    let mesh = MeshGroups::read(
        &options.mesh.join("mesh2024_descriptors.tsv.gz"),
        &options.mesh.join("mesh2024_supplementary.tsv.gz"),
    )?;
    let mut ids = MeshIds::default();
    let (sets, learned) = read_and_search(&mut r, &options.data, &mut ids)?;
    let mut rows = Vec::new();
    for set in &sets {
        for searches in &set.train_searches {
            rows.extend(rows::candidate_rows(&r, searches, &mut ids)?);
        }
    }
    eprintln!("searching a sample of the ontologies' own names");
    let sampled = ontology::sample(&r)?;
    rows.extend(ontology::rows(&sampled));
    let (fit_rows, held_rows) = split(rows);
    enough("candidates", &fit_rows, &held_rows)?;
    eprintln!(
        "fitting the candidate model on {} candidates",
        fit_rows.len()
    );
    let candidate = fit_calibrated(
        &fit_rows,
        &held_rows,
        FeatureMask::of_scope(Scope::Candidate),
    );
    let readings = ground_every_document(&mut r, (&sets, &learned), &candidate, &mesh, &mut ids)?;
    let mention_rows = |readings: &[(Vec<Reading>, Vec<Reading>)]| -> Vec<(bool, Row)> {
        let mut out = Vec::new();
        for (set, (train, _)) in sets.iter().zip(readings) {
            for reading in train {
                if let Some(right) = reading.right {
                    let calibrates = set.train.docs[reading.doc].calibrates();
                    out.push((
                        calibrates,
                        Row {
                            features: reading.features,
                            right,
                        },
                    ));
                }
            }
        }
        out
    };
    let (fit_mentions, held_mentions) = split(mention_rows(&readings));
    enough("passage readings", &fit_mentions, &held_mentions)?;
    eprintln!(
        "fitting the mention model on {} readings",
        fit_mentions.len()
    );
    let mention = fit_calibrated(
        &fit_mentions,
        &held_mentions,
        FeatureMask::of_scope(Scope::Mention),
    );
    let train_pairs: Vec<(&Corpus, &[Reading])> = sets
        .iter()
        .zip(&readings)
        .map(|(s, (train, _))| (&s.train, train.as_slice()))
        .collect();
    let (threshold, held_f1) = best_threshold(&train_pairs, &mention);
    let mut model = ConfidenceModel::new(candidate, mention, threshold);
    model.learn(learned.all());
    let held_out = held_out_figures(&r, &sets, &readings, &model, &mut ids, held_f1)?;
    let file = model_file(&model, &options.data, &held_out, learned.all())?;
    std::fs::write(&options.output, file.to_toml()?)
        .with_context(|| format!("writing {}", options.output.display()))?;
    eprintln!(
        "wrote {} (version {}, {} learned names) in {:.1} s",
        options.output.display(),
        file.version,
        file.learned_names.len(),
        started.elapsed().as_secs_f64()
    );
    if let Some(path) = &options.misses {
        let mut out = String::from("text\tgold\tanswer\tconfidence\tbasis\n");
        for set in &sets {
            out.push_str(&rows::confident_misses(
                &r,
                &set.train_searches[2],
                &model,
                &mut ids,
            )?);
        }
        std::fs::write(path, out).with_context(|| format!("writing {}", path.display()))?;
    }
    report(&r, &sets, &readings, &model, &mut ids)?;
    let own = Calibration::of(&ontology::first_answers(&sampled, &model));
    println!(
        "  ontologies' own names (the sample set aside): recall@1 {:.3}, ECE {:.3}, stated >= 0.9: {} ({:.1} % wrong)",
        own.share_right(),
        own.ece,
        own.confident,
        100.0 * own.confident_wrong_share()
    );
    if options.ablation {
        let evaluated = Evaluated {
            r: &r,
            sets: &sets,
            readings: &readings,
            sampled: &sampled,
        };
        ablation(
            &evaluated,
            &model,
            &mut ids,
            (&fit_rows, &held_rows),
            (&fit_mentions, &held_mentions),
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The corpora's training and development sets, the names learned from each fitting part, and
/// every gold mention searched with the names its part may meet.
fn read_and_search(
    r: &mut Resolver,
    data: &Path,
    ids: &mut MeshIds,
) -> anyhow::Result<(Vec<Sets>, LearnedByPart)> {
    let read = |file: &str, id: &'static str, groups: &'static [Group]| -> anyhow::Result<Corpus> {
        Ok(Corpus {
            id,
            docs: read_pubtator(&data.join(file))?,
            groups,
        })
    };
    let mut corpora = Vec::new();
    let mut learned = LearnedByPart {
        from_a: Vec::new(),
        from_b: Vec::new(),
    };
    for (id, train, develop, groups) in [
        (
            "ncbi-disease",
            NCBI_TRAIN,
            NCBI_DEVELOP,
            &[Group::Disease][..],
        ),
        (
            "bc5cdr",
            BC5CDR_TRAIN,
            BC5CDR_DEVELOP,
            &[Group::Disease, Group::Chemical][..],
        ),
    ] {
        let (train, develop) = (read(train, id, groups)?, read(develop, id, groups)?);
        eprintln!("{id}: learning names from the training set");
        let plain = rows::search_mentions(r, &train, &|_| true)?;
        let fit_a = |d: &Document| d.part() == Part::FitA;
        let fit_b = |d: &Document| d.part() == Part::FitB;
        learned
            .from_a
            .extend(learn::learn_names(r, &train, &plain, ids, &fit_a)?);
        learned
            .from_b
            .extend(learn::learn_names(r, &train, &plain, ids, &fit_b)?);
        corpora.push((train, develop));
    }
    eprintln!("searching every gold mention's name");
    let mut sets = Vec::new();
    for (train, develop) in corpora {
        let mut train_searches = Vec::new();
        for part in PARTS {
            weigh_with(r, &Dense::zero(), learned.for_part(part));
            train_searches.push(rows::search_mentions(r, &train, &|d| d.part() == part)?);
        }
        weigh_with(r, &Dense::zero(), learned.all());
        let develop_searches = rows::search_mentions(r, &develop, &|_| true)?;
        sets.push(Sets {
            train,
            develop,
            train_searches,
            develop_searches,
        });
    }
    Ok((sets, learned))
}

/// Every training and development document grounded with `candidate` and the names its part
/// may meet: per corpus, the training readings and the development readings.
fn ground_every_document(
    r: &mut Resolver,
    (sets, learned): (&[Sets], &LearnedByPart),
    candidate: &Dense,
    mesh: &MeshGroups,
    ids: &mut MeshIds,
) -> anyhow::Result<Vec<(Vec<Reading>, Vec<Reading>)>> {
    eprintln!("grounding every training and development document");
    let mut readings = Vec::new();
    for set in sets {
        let mut train = Vec::new();
        for part in PARTS {
            weigh_with(r, candidate, learned.for_part(part));
            let keep = |d: &Document| d.part() == part;
            train.extend(rows::passage_readings(r, &set.train, mesh, ids, &keep)?);
        }
        weigh_with(r, candidate, learned.all());
        let develop = rows::passage_readings(r, &set.develop, mesh, ids, &|_| true)?;
        readings.push((train, develop));
    }
    Ok(readings)
}

/// Rows fitted on, and rows set aside to calibrate.
fn split(rows: Vec<(bool, Row)>) -> (Vec<Row>, Vec<Row>) {
    let (held, fitted): (Vec<_>, Vec<_>) = rows.into_iter().partition(|(c, _)| *c);
    (
        fitted.into_iter().map(|(_, r)| r).collect(),
        held.into_iter().map(|(_, r)| r).collect(),
    )
}

fn fit_calibrated(fitted: &[Row], held: &[Row], mask: FeatureMask) -> Dense {
    calibrate(&fit(fitted, &mask), held)
}

/// Too few examples to fit or to calibrate is an error, never a flat model.
fn enough(what: &str, fitted: &[Row], held: &[Row]) -> anyhow::Result<()> {
    const MIN_ROWS: usize = 100;
    let right = |rows: &[Row]| rows.iter().filter(|r| r.right).count();
    for (part, rows) in [("fitted on", fitted), ("set aside", held)] {
        let r = right(rows);
        if rows.len() < MIN_ROWS || r == 0 || r == rows.len() {
            anyhow::bail!(
                "too few {what} to train on ({} {part}, {r} right): are the corpora in the data directory?",
                rows.len()
            );
        }
    }
    Ok(())
}

/// The calibration figures on the documents set aside.
fn held_out_figures(
    r: &Resolver,
    sets: &[Sets],
    readings: &[(Vec<Reading>, Vec<Reading>)],
    model: &ConfidenceModel,
    ids: &mut MeshIds,
    mention_f1: f64,
) -> anyhow::Result<HeldOut> {
    let mut firsts = Vec::new();
    let mut mentions = Vec::new();
    for (set, (train, _)) in sets.iter().zip(readings) {
        for searches in &set.train_searches {
            firsts.extend(rows::first_answers(r, searches, model, ids, Some(true))?);
        }
        for reading in train.iter().filter(|x| set.train.docs[x.doc].calibrates()) {
            if let Some(right) = reading.right {
                mentions.push((model.mention.apply(&reading.features).p, right));
            }
        }
    }
    let (c, m) = (Calibration::of(&firsts), Calibration::of(&mentions));
    Ok(HeldOut {
        candidates: c.answers as u64,
        candidate_ece: round3(c.ece),
        mentions: m.answers as u64,
        mention_ece: round3(m.ece),
        mention_f1: round3(mention_f1),
    })
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The model file: weights, threshold, the corpora with their checksums, and a version that
/// is a digest of the weights.
fn model_file(
    model: &ConfidenceModel,
    data: &Path,
    held_out: &HeldOut,
    learned_names: Vec<LearnedName>,
) -> anyhow::Result<ModelFile> {
    let mut trained_on = Vec::new();
    for (id, file, citation) in [
        ("ncbi-disease", NCBI_TRAIN, NCBI_CITATION),
        ("bc5cdr", BC5CDR_TRAIN, BC5CDR_CITATION),
    ] {
        let bytes = std::fs::read(data.join(file)).with_context(|| format!("reading {file}"))?;
        trained_on.push(CorpusRecord {
            id: id.into(),
            file: file.into(),
            sha256: hex(&Sha256::digest(&bytes)),
            citation: citation.into(),
        });
    }
    let mut file = ModelFile {
        format: MODEL_FORMAT,
        version: String::new(),
        candidate: model.candidate.to_weights(Scope::Candidate),
        mention: model.mention.to_weights(Scope::Mention),
        mention_threshold: (model.mention_threshold * 100.0).round() / 100.0,
        trained_on,
        held_out: held_out.clone(),
        learned_names,
    };
    let digest = Sha256::digest(file.to_toml()?.as_bytes());
    file.version = hex(&digest[..6]);
    Ok(file)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The development figures, printed.
fn report(
    r: &Resolver,
    sets: &[Sets],
    readings: &[(Vec<Reading>, Vec<Reading>)],
    model: &ConfidenceModel,
    ids: &mut MeshIds,
) -> anyhow::Result<()> {
    println!("development sets (reported, never fitted on):");
    for (set, (_, develop)) in sets.iter().zip(readings) {
        let answers = rows::first_answers(r, &set.develop_searches, model, ids, None)?;
        let firsts = Calibration::of(&answers);
        println!(
            "  {} find_concepts reliability (answers@stated:right): {}",
            set.develop.id,
            Calibration::bins(&answers)
        );
        println!(
            "  {} find_concepts by match kind: {}",
            set.develop.id,
            rows::by_kind(r, &set.develop_searches, model, ids)?
        );
        println!(
            "  {} find_concepts: recall@1 {:.3}, ECE {:.3}, stated >= 0.9: {} ({:.1} % wrong)",
            set.develop.id,
            firsts.share_right(),
            firsts.ece,
            firsts.confident,
            100.0 * firsts.confident_wrong_share()
        );
        let all = |_: usize| true;
        let scores = concept_scores(
            &set.develop,
            develop,
            &model.mention,
            model.mention_threshold,
            &all,
        );
        let calibration = reading_calibration(develop, &model.mention, &all);
        for (group, prf) in scores {
            println!(
                "  {} ground_passage {group:?}: concept P {:.3} R {:.3} F1 {:.3}",
                set.develop.id,
                prf.precision(),
                prf.recall(),
                prf.f1()
            );
        }
        println!(
            "  {} ground_passage readings: ECE {:.3}, stated >= 0.9: {} ({:.1} % wrong)",
            set.develop.id,
            calibration.ece,
            calibration.confident,
            100.0 * calibration.confident_wrong_share()
        );
    }
    Ok(())
}

/// What the ablation scores a model on: the development sets and the ontology sample.
struct Evaluated<'a> {
    r: &'a Resolver,
    sets: &'a [Sets],
    readings: &'a [(Vec<Reading>, Vec<Reading>)],
    sampled: &'a [ontology::Sampled],
}

impl Evaluated<'_> {
    /// One row of the ablation table: per corpus, recall@1 and ECE of find_concepts, concept
    /// F1 and ECE of ground_passage; then the ontology sample's recall@1 and ECE.
    fn cells(&self, m: &ConfidenceModel, ids: &mut MeshIds) -> anyhow::Result<Vec<String>> {
        let mut cells = Vec::new();
        for (set, (_, develop)) in self.sets.iter().zip(self.readings) {
            let firsts = Calibration::of(&rows::first_answers(
                self.r,
                &set.develop_searches,
                m,
                ids,
                None,
            )?);
            let all = |_: usize| true;
            let mut total = eval::Prf::default();
            for (_, prf) in
                concept_scores(&set.develop, develop, &m.mention, m.mention_threshold, &all)
            {
                total.tp += prf.tp;
                total.fp += prf.fp;
                total.fn_ += prf.fn_;
            }
            let calibration = reading_calibration(develop, &m.mention, &all);
            cells.push(format!(
                "{:.3}\t{:.3}\t{:.3}\t{:.3}",
                firsts.share_right(),
                firsts.ece,
                total.f1(),
                calibration.ece
            ));
        }
        let own = Calibration::of(&ontology::first_answers(self.sampled, m));
        cells.push(format!("{:.3}\t{:.3}", own.share_right(), own.ece));
        // The training documents set aside: where a choice between models may be made.
        let mut held = Vec::new();
        for set in self.sets {
            held.extend(rows::first_answers(
                self.r,
                &set.train_searches[2],
                m,
                ids,
                Some(true),
            )?);
        }
        let held = Calibration::of(&held);
        cells.push(format!("{:.3}\t{:.3}", held.share_right(), held.ece));
        Ok(cells)
    }
}

/// Each feature switched off: both models refitted without it, and the figures.
fn ablation(
    evaluated: &Evaluated<'_>,
    model: &ConfidenceModel,
    ids: &mut MeshIds,
    candidates: (&[Row], &[Row]),
    mentions: (&[Row], &[Row]),
) -> anyhow::Result<()> {
    let mut header: Vec<String> = evaluated
        .sets
        .iter()
        .map(|s| {
            format!(
                "{0} r@1\t{0} ECE\t{0} passage F1\t{0} passage ECE",
                s.develop.id
            )
        })
        .collect();
    header.push("ontologies r@1\tontologies ECE".into());
    header.push("set aside r@1\tset aside ECE".into());
    println!(
        "ablation (development sets; the ontology sample set aside)\nfeature off\t{}",
        header.join("\t")
    );
    println!("(none)\t{}", evaluated.cells(model, ids)?.join("\t"));
    for &feature in Feature::ALL {
        let mut m = model.clone();
        if feature.scope() == Scope::Candidate {
            let mask = FeatureMask::of_scope(Scope::Candidate).without(feature);
            m.candidate = fit_calibrated(candidates.0, candidates.1, mask);
        }
        let mask = FeatureMask::of_scope(Scope::Mention).without(feature);
        m.mention = fit_calibrated(mentions.0, mentions.1, mask);
        println!(
            "{}\t{}",
            feature.name(),
            evaluated.cells(&m, ids)?.join("\t")
        );
    }
    Ok(())
}

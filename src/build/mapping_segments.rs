//! The segments of the mapping index a build writes or takes: one per current source release
//! (its cross-references) and one for the mapping sets (`index::mapping_segments` orders
//! them). A segment read anew is filled as its statements arrive, parked on disk while the
//! next is filled, and written at the end, largest first, on two cores; a segment taken from
//! the installed build is hard-linked, after its files were checked against their recorded
//! checksums.

use std::path::Path;

use super::mapping_reuse::link_or_copy;
use super::{BuildError, BuildObserver, io_err};
use crate::index::manifest::MappingSegmentRecord;
use crate::index::mappings::{MappingIndexWriter, Statement};
use crate::index::{BuildLayout, MAPPING_SETS_SEGMENT, MappingIndexCounts};
use crate::model::PrefixFootprint;

/// A segment read anew, or taken from the installed build as it stands.
enum Segment {
    Written {
        name: String,
        writer: MappingIndexWriter,
        prefix_use: Option<PrefixFootprint>,
    },
    Taken(MappingSegmentRecord),
}

/// Every segment of the build's mapping index, in order.
pub(super) struct MappingSegments {
    spill_dir: std::path::PathBuf,
    releases: Vec<Segment>,
    sets: Segment,
    /// The installed build, when some segment is taken from it (it stays leased meanwhile).
    installed: Option<BuildLayout>,
}

impl MappingSegments {
    pub(super) fn new(layout: &BuildLayout) -> MappingSegments {
        MappingSegments {
            spill_dir: layout.dir.clone(),
            releases: Vec::new(),
            sets: Segment::Written {
                name: MAPPING_SETS_SEGMENT.to_string(),
                writer: MappingIndexWriter::spilling(&layout.dir, MAPPING_SETS_SEGMENT),
                prefix_use: None,
            },
            installed: None,
        }
    }

    /// Parks the release segment being filled: its entries go to disk.
    fn park_last(&mut self) {
        if let Some(Segment::Written { writer, .. }) = self.releases.last_mut() {
            writer.park();
        }
    }

    /// Starts the segment of a current release read anew (`name`: its origin).
    pub(super) fn begin_release(&mut self, name: String) {
        self.park_last();
        let writer = MappingIndexWriter::spilling(&self.spill_dir, &name);
        self.releases.push(Segment::Written {
            name,
            writer,
            prefix_use: None,
        });
    }

    /// Ends the release segment being filled, with its footprint.
    pub(super) fn end_release(&mut self, footprint: PrefixFootprint) {
        if let Some(Segment::Written { prefix_use, .. }) = self.releases.last_mut() {
            *prefix_use = Some(footprint);
        }
        self.park_last();
    }

    /// Takes a release's segment from the installed build.
    pub(super) fn take_release(&mut self, record: MappingSegmentRecord, installed: &BuildLayout) {
        self.park_last();
        self.releases.push(Segment::Taken(record));
        self.installed.get_or_insert_with(|| installed.clone());
    }

    /// Takes the mapping sets' segment from the installed build.
    pub(super) fn take_sets(&mut self, record: MappingSegmentRecord, installed: &BuildLayout) {
        self.sets = Segment::Taken(record);
        self.installed.get_or_insert_with(|| installed.clone());
    }

    /// Adds a statement to the release segment being filled; false when it cannot be indexed
    /// (or no release segment is open, which the build never does).
    pub(super) fn add_xref(&mut self, statement: &Statement<'_>) -> bool {
        match self.releases.last_mut() {
            Some(Segment::Written { writer, .. }) => writer.add(statement),
            _ => false,
        }
    }

    /// Adds a mapping set's statement; false when it cannot be indexed.
    pub(super) fn add_set_statement(&mut self, statement: &Statement<'_>) -> bool {
        match &mut self.sets {
            Segment::Written { writer, .. } => writer.add(statement),
            Segment::Taken(_) => false,
        }
    }

    /// Writes the segments read anew and links the taken ones: the index's counts (the sum of
    /// the segments') and each segment's record, in order.
    pub(super) fn finish(
        mut self,
        layout: &BuildLayout,
        predicted: &[u16],
        observer: &dyn BuildObserver,
    ) -> Result<(MappingIndexCounts, Vec<MappingSegmentRecord>), BuildError> {
        self.park_last();
        let segments: Vec<Segment> = self.releases.into_iter().chain([self.sets]).collect();
        let written = segments
            .iter()
            .filter(|s| matches!(s, Segment::Written { .. }))
            .count();
        observer.stage(&format!(
            "writing {written} segment(s) of the mapping index ({} taken as stored)",
            segments.len() - written
        ));
        let mut records = write_segments(segments, layout, predicted)?;
        if let Some(installed) = &self.installed {
            for record in records.iter().filter(|r| r.1) {
                take_segment_files(installed, layout, &record.0.name)?;
            }
        }
        let mut counts = MappingIndexCounts::default();
        for (record, _) in &records {
            counts += record.counts;
        }
        Ok((counts, records.drain(..).map(|(r, _)| r).collect()))
    }
}

/// Writes every segment read anew, largest first, on two threads; each segment's record and
/// whether it was taken, in the segments' order.
fn write_segments(
    segments: Vec<Segment>,
    layout: &BuildLayout,
    predicted: &[u16],
) -> Result<Vec<(MappingSegmentRecord, bool)>, BuildError> {
    let mut results: Vec<Option<Result<(MappingSegmentRecord, bool), BuildError>>> =
        Vec::with_capacity(segments.len());
    let mut jobs = Vec::new();
    for (at, segment) in segments.into_iter().enumerate() {
        match segment {
            Segment::Taken(record) => results.push(Some(Ok((record, true)))),
            Segment::Written {
                name,
                writer,
                prefix_use,
            } => {
                results.push(None);
                jobs.push((at, name, writer, prefix_use));
            }
        }
    }
    jobs.sort_by_key(|(at, _, writer, _)| (std::cmp::Reverse(writer.statements()), *at));
    let queue = std::sync::Mutex::new(jobs.into_iter());
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let job = match queue.lock() {
                        Ok(mut queue) => queue.next(),
                        Err(_) => None,
                    };
                    let Some((at, name, writer, prefix_use)) = job else {
                        break;
                    };
                    let files = layout.mapping_segment(&name);
                    let result = match writer.finish(&files, predicted) {
                        Ok(counts) => Ok((
                            MappingSegmentRecord {
                                name,
                                counts,
                                prefix_use,
                            },
                            false,
                        )),
                        Err(e) => Err(io_err(format!("writing mapping segment {name}"))(e)),
                    };
                    if let Ok(mut done) = done.lock() {
                        done.push((at, result));
                    }
                }
            });
        }
    });
    for (at, result) in done.into_inner().unwrap_or_default() {
        results[at] = Some(result);
    }
    results
        .into_iter()
        .map(|r| {
            r.unwrap_or_else(|| {
                Err(io_err("writing the mapping index")(std::io::Error::other(
                    "a segment writer stopped",
                )))
            })
        })
        .collect()
}

/// Links (or copies, across file systems) one installed segment's files into the new build.
fn take_segment_files(
    installed: &BuildLayout,
    layout: &BuildLayout,
    name: &str,
) -> Result<(), BuildError> {
    let (from, to) = (
        installed.mapping_segment(name),
        layout.mapping_segment(name),
    );
    for (from, to) in from.all().into_iter().zip(to.all()) {
        link(from, to)?;
    }
    Ok(())
}

fn link(from: &Path, to: &Path) -> Result<(), BuildError> {
    link_or_copy(from, to).map_err(io_err(format!(
        "taking the installed mapping file {}",
        from.display()
    )))
}

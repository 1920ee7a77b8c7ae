//! Merging the shards of a study back into one comparison (see [`super::shard`]): the study
//! id that tells which shards belong together, and [`merge`], which refuses shards of other
//! studies, duplicates and missing or stopped shards unless told to merge what is there.

use std::collections::{BTreeMap, HashMap};

use super::output::{Machine, Meta, Provenance};
use super::running::mark_disagreements;
use super::shard::{
    hex, host_name, solver_version, Fnv64, Merged, MergedShard, MissingShard, Shard, Study,
};
use super::{CompareConfig, CompareError, Comparison, Run};
use crate::backend::BackendKind;
use crate::solve::SolverSpec;

/// What decides a study's runs besides the entries of its [`CompareConfig`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StudyInputs {
    /// The content hash of each instance, in order ([`puzzle_hash`](super::shard::puzzle_hash), [`formula_hash`](super::shard::formula_hash)).
    pub instances: Vec<u64>,
    /// Each entry's solver version, where an external solver prints one
    /// ([`solver_version`]), in entry order (missing ones count as none).
    pub versions: Vec<Option<String>>,
    /// `--seed`.
    pub seed: u64,
    /// `--limit`.
    pub limit: Option<usize>,
}

impl StudyInputs {
    /// The inputs of the study `config` makes on the instances of these content hashes,
    /// with each entry's solver version: an embedded solver library's (`cadical-3.0.1`)
    /// counts, and a sharded run also asks each external solver for its version
    /// (`PROGRAM --version`), so that shards measured with different solver builds are
    /// not merged as one study.
    pub fn measured(
        config: &CompareConfig,
        instances: Vec<u64>,
        seed: u64,
        limit: Option<usize>,
    ) -> StudyInputs {
        let versions = config
            .entries
            .iter()
            .map(|entry| match entry {
                SolverSpec::Sat { backend, .. } if backend.kind.is_embedded() => {
                    (backend.kind.entry().library)()
                }
                SolverSpec::Sat { backend, .. } if config.shard != Shard::WHOLE => {
                    match (backend.kind, backend.command.as_deref()) {
                        (BackendKind::Minisat, None) => solver_version("minisat"),
                        (BackendKind::Minisat | BackendKind::External, Some(command)) => {
                            solver_version(command)
                        }
                        _ => None,
                    }
                }
                _ => None,
            })
            .collect();
        StudyInputs {
            instances,
            versions,
            seed,
            limit,
        }
    }
}

/// The study id: FNV-1a 64 over the sudosat version, whether the instances are formulas
/// (`--cnf`), the instances' content hashes, each entry (its label, its full description
/// with every option, an external command among them, and its solver version),
/// `--timeout`, `--repeat`, `--seed`, `--isomorphs`, `--vary-seed` and `--limit`. Not
/// `--jobs`, nor the shard: shards of one study share it.
pub fn study_id(config: &CompareConfig, inputs: &StudyInputs) -> u64 {
    let mut h = Fnv64::default();
    h.field("sudosat", env!("CARGO_PKG_VERSION"));
    h.field("instances", if config.formulas { "cnf" } else { "puzzles" });
    h.number(inputs.instances.len() as u64);
    for &instance in &inputs.instances {
        h.number(instance);
    }
    for (i, entry) in config.entries.iter().enumerate() {
        h.field("entry", &config.label(entry));
        h.field("spec", &format!("{entry:?}"));
        let version = inputs.versions.get(i).cloned().flatten();
        h.field("version", version.as_deref().unwrap_or(""));
    }
    let optional = |v: Option<String>| v.unwrap_or_else(|| "none".to_string());
    h.field(
        "timeout",
        &optional(config.timeout.map(|t| t.as_nanos().to_string())),
    );
    h.field("repeat", &config.repeat.to_string());
    h.field("seed", &inputs.seed.to_string());
    h.field(
        "isomorphs",
        &optional(config.isomorphs.map(|s| s.to_string())),
    );
    h.field("vary_seed", &config.vary_seed.to_string());
    h.field("limit", &optional(inputs.limit.map(|l| l.to_string())));
    h.finish()
}

/// A saved CSV of runs with its sidecar, to be merged.
#[derive(Clone, Debug)]
pub struct ShardFile {
    /// The CSV as named.
    pub name: String,
    /// Its rows.
    pub runs: Vec<Run>,
    /// Its sidecar (`None`: there was none).
    pub meta: Option<Meta>,
}

fn refuse(message: String) -> CompareError {
    CompareError::Shards(message)
}

/// The one comparison of the shards in `files`, with the provenance of the first shard and
/// [`Provenance::merged`] saying how it was put together.
///
/// # Errors
/// [`CompareError::Shards`], one line naming the files, for a file without a study in its
/// sidecar, shards of different studies (or splits), a shard given twice, a row of an
/// instance the study does not have or given twice, and (unless `allow_missing`) missing
/// shards, a stopped shard (fewer runs than its share, or marked interrupted) counting as
/// missing.
pub fn merge(
    files: Vec<ShardFile>,
    allow_missing: bool,
) -> Result<(Comparison, Provenance), CompareError> {
    let mut studied: Vec<(ShardFile, Meta, Study)> = Vec::with_capacity(files.len());
    for file in files {
        let meta = file.meta.clone().ok_or_else(|| {
            refuse(format!(
                "{}: no sidecar beside it, so no study id: only CSVs written with their \
                 sidecars can be merged",
                file.name
            ))
        })?;
        let study = meta.provenance.study.clone().ok_or_else(|| {
            refuse(format!(
                "{}: its sidecar has no study id (an older sudosat wrote it): give it alone",
                file.name
            ))
        })?;
        studied.push((file, meta, study));
    }
    let Some((first, _, first_study)) = studied.first() else {
        return Err(refuse("no CSV to merge".to_string()));
    };
    for (file, _, study) in &studied[1..] {
        if study.id != first_study.id {
            return Err(refuse(format!(
                "{} and {} hold different studies ({} and {}): other inputs, entries, solver \
                 versions or settings; merge the shards of one study",
                first.name, file.name, first_study.id, study.id
            )));
        }
        if study.instances != first_study.instances {
            return Err(refuse(format!(
                "{} and {} name study {} but list different instances: a sidecar was edited",
                first.name, file.name, study.id
            )));
        }
        if study.shard.count != first_study.shard.count {
            return Err(refuse(format!(
                "{} is shard {} but {} is shard {}: the same study split two ways",
                first.name, first_study.shard, file.name, study.shard
            )));
        }
    }
    let count = first_study.shard.count;
    let mut by_shard: BTreeMap<usize, usize> = BTreeMap::new();
    for (i, (file, _, study)) in studied.iter().enumerate() {
        if let Some(&other) = by_shard.get(&study.shard.index) {
            return Err(refuse(format!(
                "shard {} is given twice: {} and {}",
                study.shard, studied[other].0.name, file.name
            )));
        }
        by_shard.insert(study.shard.index, i);
    }
    let mut missing = Vec::new();
    let mut complete = Vec::new();
    for k in 1..=count {
        match by_shard.get(&k) {
            None => missing.push(MissingShard {
                shard: k,
                reason: "no file".to_string(),
            }),
            Some(&i) => {
                let (file, meta, study) = &studied[i];
                if meta.interrupted || file.runs.len() != study.runs {
                    missing.push(MissingShard {
                        shard: k,
                        reason: format!(
                            "{} stopped after {} of its {} runs",
                            file.name,
                            file.runs.len(),
                            study.runs
                        ),
                    });
                } else {
                    complete.push(i);
                }
            }
        }
    }
    if !missing.is_empty() && !allow_missing {
        let list: Vec<String> = missing
            .iter()
            .map(|m| format!("{}/{count} ({})", m.shard, m.reason))
            .collect();
        let names: Vec<&str> = studied.iter().map(|(f, _, _)| f.name.as_str()).collect();
        return Err(refuse(format!(
            "missing {} {} of study {} among {}: rerun {} or merge the rest with --allow-missing",
            if missing.len() == 1 {
                "shard"
            } else {
                "shards"
            },
            list.join(", "),
            first_study.id,
            names.join(", "),
            if missing.len() == 1 { "it" } else { "them" },
        )));
    }

    let (_, first_meta, _) = &studied[complete.first().copied().unwrap_or(0)];
    let instances = first_study.instances.len();
    let mut seen: HashMap<(usize, String, usize), &str> = HashMap::new();
    let mut runs = Vec::new();
    let mut shards = Vec::new();
    let mut parallel = false;
    for &i in &complete {
        let (file, meta, study) = &studied[i];
        parallel |= meta.parallel;
        for run in &file.runs {
            if run.puzzle_index == 0 || run.puzzle_index > instances {
                return Err(refuse(format!(
                    "{}: a row of instance {}, but the study has {instances}",
                    file.name, run.puzzle_index
                )));
            }
            let key = (run.puzzle_index, run.solver.clone(), run.repeat);
            if let Some(other) = seen.insert(key, &file.name) {
                return Err(refuse(format!(
                    "{} and {} both hold the run of {} on instance {} ({}), repeat {}",
                    other,
                    file.name,
                    run.solver,
                    run.puzzle_index,
                    study.instances[run.puzzle_index - 1],
                    run.repeat
                )));
            }
        }
        runs.extend(file.runs.iter().cloned());
        shards.push(MergedShard {
            shard: study.shard.index,
            file: file.name.clone(),
            host: study.host.clone(),
            cpu: study.cpu.clone(),
            runs: file.runs.len(),
        });
    }
    let mut comparison = first_meta.comparison(Vec::new());
    let position = |label: &str| comparison.solvers.iter().position(|s| s == label);
    runs.sort_by_key(|r| (r.puzzle_index, position(&r.solver), r.repeat));
    mark_disagreements(&mut runs);
    comparison.runs = runs;
    comparison.parallel = parallel;
    comparison.interrupted = false;
    let mut provenance = first_meta.provenance.clone();
    provenance.study = None;
    provenance.merged = Some(Merged {
        study: first_study.id.clone(),
        count,
        shards,
        missing,
    });
    Ok((comparison, provenance))
}

impl Study {
    /// The study of `config` on `inputs`, measured here.
    pub fn here(config: &CompareConfig, inputs: &StudyInputs) -> Study {
        Study {
            id: hex(study_id(config, inputs)),
            shard: config.shard,
            runs: config.total_runs(inputs.instances.len()),
            host: host_name(),
            cpu: Machine::detect().cpu,
            instances: inputs.instances.iter().map(|&h| hex(h)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::shard::Shard;

    #[test]
    fn the_study_id_follows_the_settings_but_not_the_jobs_or_shard() {
        use crate::compare::{entries, parse_encodings, parse_solvers};
        let config = CompareConfig::new(
            entries(
                &parse_solvers("dpll,dlx").unwrap(),
                &parse_encodings("minimal").unwrap(),
                &Default::default(),
            )
            .unwrap(),
        );
        let inputs = StudyInputs {
            instances: vec![1, 2, 3],
            ..StudyInputs::default()
        };
        let id = study_id(&config, &inputs);
        let same = CompareConfig {
            jobs: 2,
            shard: Shard { index: 2, count: 3 },
            ..config.clone()
        };
        assert_eq!(study_id(&same, &inputs), id);
        let changed = [
            CompareConfig {
                repeat: 2,
                ..config.clone()
            },
            CompareConfig {
                vary_seed: true,
                ..config.clone()
            },
            CompareConfig {
                isomorphs: Some(0),
                ..config.clone()
            },
            CompareConfig {
                timeout: Some(std::time::Duration::from_secs(1)),
                ..config.clone()
            },
            CompareConfig {
                formulas: true,
                ..config.clone()
            },
        ];
        for other in changed {
            assert_ne!(study_id(&other, &inputs), id, "{other:?}");
        }
        for other in [
            StudyInputs {
                instances: vec![1, 3, 2],
                ..inputs.clone()
            },
            StudyInputs {
                seed: 1,
                ..inputs.clone()
            },
            StudyInputs {
                limit: Some(3),
                ..inputs.clone()
            },
            StudyInputs {
                versions: vec![Some("1.0".to_string())],
                ..inputs.clone()
            },
        ] {
            assert_ne!(study_id(&config, &other), id, "{other:?}");
        }
    }
}

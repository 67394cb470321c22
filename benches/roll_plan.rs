//! Planning cost of the roll engine on large clusters.
//!
//! 1,000 brokers (+3 controllers), 100,000 partitions at RF 3, min ISR 2,
//! rack-aware (3 racks) and random placements, every broker to restart; and
//! 2,000 brokers, 300,000 partitions, rack-aware, `min.insync.replicas` 1 or
//! 2 per topic, once with only the brokers to restart and once with its 3
//! controllers in the roll too (`KAFKAOPS_BENCH_FIXTURE=large` runs only those
//! two, so the process's peak RSS is theirs; `KAFKAOPS_BENCH_FIXTURE=random` only the
//! 1,000-broker random placement, the one whose decisions are the slowest).
//! Measures: time to compute the next batch (`Roller::decide` from a fresh
//! roller, which includes building every index), time to preview the whole
//! roll (`Roller::plan`), the time of the decisions that follow in a roll
//! (the simulator restarts each batch; a later decision reuses the colouring
//! while the conflict graph is unchanged), peak heap (counting allocator), and the
//! number of batches compared with the lower bound
//! `max(ceil(brokers / alpha), ceil(brokers / max_batch_size))`, where
//! `alpha` (the largest set of brokers sharing no partition) is bounded from
//! above by a disjoint clique cover built from the partitions themselves
//! (any independent set takes at most one broker per clique).
//!
//! Run: `cargo bench --bench roll_plan` (figures in `benches/README.md`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::{BTreeMap, BTreeSet};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use kafkaops::engine::model::{ClusterSnapshot, Millis, NodeId};
use kafkaops::engine::roll::batch::ConflictGraph;
use kafkaops::engine::roll::sim::{ClusterSpec, Placement, SimCluster};
use kafkaops::engine::roll::{Decision, NodeRequest, RollConfig, Roller};

/// Counts live heap bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: delegates to the system allocator; only adds bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Runs `f`, returning its result and the peak heap above the live heap at
/// the start.
fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed) - base)
}

/// Full size under `cargo bench`; a 10x smaller cluster when `cargo test
/// --all-targets` runs this file once in test mode (unoptimised).
fn scale() -> usize {
    if std::env::args().any(|a| a == "--bench") {
        1
    } else {
        10
    }
}

fn broker_count() -> usize {
    1_000 / scale()
}

fn spec(placement: Placement) -> ClusterSpec {
    ClusterSpec {
        brokers: broker_count(),
        combined: 0,
        controllers: 3,
        topics: 1_000 / scale(),
        partitions_per_topic: 100,
        replication_factor: 3,
        min_isr_choices: vec![2],
        racks: 3,
        placement,
    }
}

/// 2,000 brokers, 300,000 partitions, rack-aware, mixed min ISR.
fn large_spec() -> ClusterSpec {
    ClusterSpec {
        brokers: 2 * broker_count(),
        topics: 3_000 / scale(),
        min_isr_choices: vec![1, 2],
        ..spec(Placement::RackAware)
    }
}

struct Fixture {
    name: &'static str,
    spec: ClusterSpec,
    snapshot: ClusterSnapshot,
    requests: BTreeMap<NodeId, NodeRequest>,
    snapshot_bytes: usize,
}

fn fixture(name: &'static str, spec: &ClusterSpec) -> Fixture {
    fixture_with(name, spec, false)
}

/// `controllers`: the controllers restart too (they go first, one at a time).
fn fixture_with(name: &'static str, spec: &ClusterSpec, controllers: bool) -> Fixture {
    let (snapshot, snapshot_bytes) = peak_during(|| SimCluster::generate(spec, 42).snapshot());
    let requests = snapshot
        .nodes
        .iter()
        .filter(|n| n.roles.broker || controllers)
        .map(|n| {
            (
                n.id,
                NodeRequest {
                    restart_reasons: vec!["rolling update".into()],
                    desired_config: BTreeMap::new(),
                    expected_software: None,
                },
            )
        })
        .collect();
    Fixture {
        name,
        spec: spec.clone(),
        snapshot,
        requests,
        snapshot_bytes,
    }
}

/// Upper bound on the largest independent set (alpha): any independent set
/// takes at most one broker per clique of a clique cover, so alpha <= the
/// number of cliques. Two covers, the smaller wins: disjoint replica sets of
/// partitions (triangles at RF 3; tight for rack-aware placements), and a
/// greedy clique cover of the conflict graph (better on dense random graphs).
fn independent_set_upper_bound(
    snapshot: &ClusterSnapshot,
    graph: &ConflictGraph,
    brokers: &[NodeId],
) -> usize {
    let mut covered: BTreeSet<NodeId> = BTreeSet::new();
    let mut cliques = 0;
    for p in &snapshot.partitions {
        if p.replicas.iter().all(|r| !covered.contains(r)) {
            covered.extend(p.replicas.iter().copied());
            cliques += 1;
        }
    }
    let from_partitions = cliques + brokers.iter().filter(|b| !covered.contains(b)).count();

    let mut order: Vec<NodeId> = brokers.to_vec();
    order.sort_by_key(|b| std::cmp::Reverse(graph.degree(*b)));
    let mut left: BTreeSet<NodeId> = order.iter().copied().collect();
    let mut greedy_cliques = 0;
    for &seed in &order {
        if !left.remove(&seed) {
            continue;
        }
        let mut clique = vec![seed];
        for &c in &order {
            if left.contains(&c) && clique.iter().all(|m| graph.conflicts(*m, c)) {
                clique.push(c);
                left.remove(&c);
            }
        }
        greedy_cliques += 1;
    }
    from_partitions.min(greedy_cliques)
}

fn report(f: &Fixture) {
    let brokers: Vec<NodeId> = f
        .snapshot
        .nodes
        .iter()
        .filter(|n| n.roles.broker)
        .map(|n| n.id)
        .collect();
    let graph = ConflictGraph::build(&f.snapshot, &brokers);
    let greedy_alpha = graph.greedy_batch(&brokers, usize::MAX, |_, _| true).len();
    // The previous engine: one greedy batch after another.
    let mut left = brokers.clone();
    let mut greedy_batches = 0;
    while !left.is_empty() {
        let b = graph.greedy_batch(&left, usize::MAX, |_, _| true);
        left.retain(|n| !b.contains(n));
        greedy_batches += 1;
    }
    let alpha_upper = independent_set_upper_bound(&f.snapshot, &graph, &brokers);
    let density = brokers.iter().map(|b| graph.degree(*b)).sum::<usize>() as f64
        / (brokers.len() * (brokers.len() - 1)) as f64;
    eprintln!(
        "\n[{}] snapshot: {} nodes, {} partitions, {:.1} MiB heap; largest set sharing no partition: \
         greedy {greedy_alpha}, upper bound {alpha_upper}; conflict graph density {density:.2}; \
         one greedy batch after another (uncapped): {greedy_batches} batches",
        f.name,
        f.snapshot.nodes.len(),
        f.snapshot.partitions.len(),
        mib(f.snapshot_bytes)
    );
    for max_batch in [2_000usize, 100, 10] {
        let config = RollConfig {
            max_batch_size: max_batch,
            ..RollConfig::default()
        };
        let ((decision, next_peak), next_cpu, next_wall) = timed(|| {
            peak_during(|| {
                Roller::new(config.clone(), f.requests.clone()).decide(&f.snapshot, Millis(0))
            })
        });
        let first = decision.restarted_nodes().len();
        assert!(matches!(decision, Decision::Restart { .. }), "{decision:?}");
        let roller = Roller::new(config.clone(), f.requests.clone());
        let ((plan, plan_peak), plan_cpu, plan_wall) =
            timed(|| peak_during(|| roller.plan(&f.snapshot)));
        let batches = plan.restart_batches();
        let lower = brokers
            .len()
            .div_ceil(alpha_upper)
            .max(brokers.len().div_ceil(max_batch));
        eprintln!(
            "[{}] max_batch_size {max_batch:>4}: next batch {first:>4} brokers in {:>7.1} ms CPU ({:>7.1} wall), peak +{:>6.1} MiB; \
             whole plan {batches:>4} batches (lower bound {lower}) in {:>8.1} ms CPU ({:>8.1} wall), peak +{:>6.1} MiB",
            f.name,
            ms(next_cpu),
            ms(next_wall),
            mib(next_peak),
            ms(plan_cpu),
            ms(plan_wall),
            mib(plan_peak)
        );
    }
    // The decisions of a roll after its first restart (max_batch_size 2,000).
    let config = RollConfig {
        max_batch_size: 2_000,
        ..RollConfig::default()
    };
    let (first, mut later) = decision_times(f, &config, 5);
    later.sort();
    eprintln!(
        "[{}] in a roll (max_batch_size 2000): first restart decision {:.1} ms CPU; the next {} \
         restart decisions: median {:.1} ms CPU, max {:.1} ms CPU",
        f.name,
        ms(first),
        later.len(),
        later.get(later.len() / 2).map_or(0.0, |d| ms(*d)),
        later.last().map_or(0.0, |d| ms(*d)),
    );
}

/// Runs a roll on the simulator (every batch restarts and comes back) until `restarts`
/// restart decisions after the first; returns the first restart decision's CPU time and the
/// CPU times of every later decision that chose a batch.
fn decision_times(f: &Fixture, config: &RollConfig, restarts: usize) -> (Duration, Vec<Duration>) {
    let mut sim = SimCluster::generate(&f.spec, 42);
    let mut roller = Roller::new(config.clone(), f.requests.clone());
    sim.start_roll(config.clone());
    let mut first = None;
    let mut later = Vec::new();
    for _ in 0..1_000_000 {
        sim.report_process_ended(&mut roller);
        let snapshot = sim.snapshot();
        let (decision, took, _) = timed(|| roller.decide(&snapshot, sim.now));
        sim.apply(&decision);
        sim.feed_back(&mut roller, &decision);
        match &decision {
            Decision::Restart { .. } => {
                if first.is_none() {
                    first = Some(took);
                } else {
                    later.push(took);
                }
                if later.len() >= restarts {
                    break;
                }
                sim.advance_to(sim.now.plus(100));
            }
            Decision::Wait { until, .. } => {
                let to = (*until).max(sim.now.plus(1));
                sim.advance_to(to);
            }
            Decision::Done { .. } | Decision::Abort { .. } => break,
            _ => sim.advance_to(sim.now.plus(100)),
        }
    }
    (first.unwrap_or_default(), later)
}

/// This thread's CPU time (the engine is single-threaded): unlike wall time, it does not grow
/// with the other load on a shared machine.
fn cpu_now() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant libc defines.
    unsafe {
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &raw mut ts);
    }
    Duration::new(
        u64::try_from(ts.tv_sec).unwrap_or(0),
        u32::try_from(ts.tv_nsec).unwrap_or(0),
    )
}

/// `f`'s result, CPU time and wall time.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration, Duration) {
    let (c, w) = (cpu_now(), Instant::now());
    let out = f();
    (out, cpu_now() - c, w.elapsed())
}

fn mib(b: usize) -> f64 {
    b as f64 / (1024.0 * 1024.0)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn bench(c: &mut Criterion) {
    let fixtures = match std::env::var("KAFKAOPS_BENCH_FIXTURE").as_deref() {
        Ok("large") => vec![
            fixture("rack-aware-2000-mixed", &large_spec()),
            fixture_with("rack-aware-2000-mixed+controllers", &large_spec(), true),
        ],
        Ok("random") => vec![fixture("random", &spec(Placement::Random))],
        _ => vec![
            fixture("rack-aware", &spec(Placement::RackAware)),
            fixture("random", &spec(Placement::Random)),
            fixture("rack-aware-2000-mixed", &large_spec()),
            fixture_with("rack-aware-2000-mixed+controllers", &large_spec(), true),
        ],
    };
    for f in &fixtures {
        report(f);
    }
    let mut group = c.benchmark_group("roll_plan");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for f in &fixtures {
        let config = RollConfig {
            max_batch_size: 2_000,
            ..RollConfig::default()
        };
        group.bench_function(format!("next_batch/{}", f.name), |b| {
            b.iter(|| {
                let mut roller = Roller::new(config.clone(), f.requests.clone());
                black_box(roller.decide(black_box(&f.snapshot), Millis(0)))
            });
        });
        group.bench_function(format!("whole_plan/{}", f.name), |b| {
            let roller = Roller::new(config.clone(), f.requests.clone());
            b.iter(|| black_box(roller.plan(black_box(&f.snapshot))));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

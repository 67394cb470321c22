//! One estimate of the time left in a data move, from a smoothed rate, or none.
//!
//! Why: Cruise Control's executor counters advance in jumps (about every 10 s on a real server)
//! and stall while a large partition copies, so "MB moved since start / elapsed" swings: an ETA
//! that grows from 4 s to 25 min while nothing changes tells the operator nothing. The estimator
//! measures the rate between the points where the finished-data counter changed, smooths it
//! (exponential moving average), and gives no estimate before it has a rate or once the counter
//! has not moved for longer than it takes to be sure the move stalled. The first observation is
//! not a change point (the counter last moved at some unknown time before it), so the first rate
//! is measured between the first two changes seen: measured from the first poll instead, a jump
//! seen one poll later reads as a rate many times too high and the first ETA far too short. Pure: the caller passes
//! the time (seconds since any fixed origin) and the counters.

/// Weight of the newest rate sample in the moving average.
const ALPHA: f64 = 0.3;
/// No estimate once the counter has not moved for this many times the usual gap between its
/// changes (and at least [`MIN_STALL_SECS`]).
const STALL_GAPS: f64 = 3.0;
const MIN_STALL_SECS: f64 = 30.0;

/// The smoothed-rate estimator (plain data: it can be kept across polls).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Eta {
    /// The last point where the finished counter changed: (time, MB); before the first change
    /// seen, the first observation.
    last_change: Option<(f64, f64)>,
    /// Whether `last_change` is a change seen (not the first observation).
    anchored: bool,
    /// Smoothed MB/s between changes.
    rate: Option<f64>,
    /// Smoothed seconds between changes.
    gap: Option<f64>,
    /// The latest observation's time.
    now: f64,
}

impl Eta {
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes one observation: `finished_mb` moved by time `t` (seconds). Older or equal times and
    /// counters that went back (Cruise Control resets them between phases) change nothing.
    pub fn observe(&mut self, t: f64, finished_mb: f64) {
        if !t.is_finite() || !finished_mb.is_finite() || t < self.now {
            return;
        }
        self.now = t;
        match self.last_change {
            None => self.last_change = Some((t, finished_mb)),
            Some((t0, mb0)) if finished_mb > mb0 && t > t0 && !self.anchored => {
                self.anchored = true;
                self.last_change = Some((t, finished_mb));
            }
            Some((t0, mb0)) if finished_mb > mb0 && t > t0 => {
                let dt = t - t0;
                let sample = (finished_mb - mb0) / dt;
                self.rate = Some(self.rate.map_or(sample, |r| r + ALPHA * (sample - r)));
                self.gap = Some(self.gap.map_or(dt, |g| g + ALPHA * (dt - g)));
                self.last_change = Some((t, finished_mb));
            }
            Some(_) => {}
        }
    }

    /// The smoothed rate in MB/s, once the counter has changed.
    #[must_use]
    pub fn rate(&self) -> Option<f64> {
        self.rate
    }

    /// Seconds left to move `total_mb` (the last observed counter is the part done); `None`
    /// without a rate yet, with nothing left, or while the counter has stalled.
    #[must_use]
    pub fn seconds_left(&self, total_mb: f64) -> Option<f64> {
        let (t0, done) = self.last_change?;
        let rate = self.rate.filter(|r| *r > 0.0 && r.is_finite())?;
        let left = total_mb - done;
        if left.is_nan() || left <= 0.0 {
            return None;
        }
        let stall = (self.gap.unwrap_or(0.0) * STALL_GAPS).max(MIN_STALL_SECS);
        let since = self.now - t0;
        if since > stall {
            return None;
        }
        // Time since the last change counts as progress already made at the smoothed rate,
        // never below zero.
        Some((left / rate - since).max(0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn none_before_a_rate_and_none_when_stalled() {
        let mut e = Eta::new();
        e.observe(0.0, 7.0);
        assert_eq!(e.seconds_left(15.0), None, "no rate yet");
        // The first change seen only anchors: the counter's previous change time is unknown.
        e.observe(10.0, 8.0);
        assert_eq!(
            e.seconds_left(15.0),
            None,
            "no rate from the first observation"
        );
        e.observe(20.0, 9.0);
        assert!(e.seconds_left(15.0).is_some());
        // Nothing moves for a long time: no estimate, rather than one that keeps growing.
        e.observe(200.0, 8.0);
        assert_eq!(e.seconds_left(15.0), None);
        // Nothing left: no estimate.
        e.observe(210.0, 15.0);
        assert_eq!(e.seconds_left(15.0), None);
    }

    proptest! {
        /// Issue #26 ("over 30 s it went 4 s, 30 s, 68 s ..."): Cruise Control's counter jumps
        /// every `period` seconds while the data moves at a constant rate; polled every `poll`
        /// seconds (a fifth of it and so on, as kafkaops' 2 s against the server's ~10 s) from
        /// any phase, every estimate is within a jump and a poll of the time really left, give or
        /// take the error of seeing each jump up to a poll late (oracle: the continuous move, not
        /// the estimator's rule).
        #[test]
        fn a_counter_that_jumps_between_polls_gets_no_estimate_far_too_short(
            rate in 0.5f64..50.0,
            period in 5.0f64..15.0,
            poll_frac in 0.05f64..0.3,
            phase_frac in 0.0f64..1.0,
            total_periods in 10.0f64..40.0,
        ) {
            let poll = period * poll_frac;
            let phase = period * phase_frac;
            let total = rate * period * total_periods;
            // What really moved by time t, and what the counter shows (its last jump).
            let moved = |t: f64| rate * (t + phase);
            let counter = |t: f64| rate * period * ((t + phase) / period).floor();
            let mut e = Eta::new();
            let mut t = 0.0;
            while moved(t) < total {
                e.observe(t, counter(t));
                if let Some(got) = e.seconds_left(total) {
                    let want = (total - moved(t)) / rate;
                    let seen_late = want * poll / (period - poll);
                    prop_assert!(
                        (got - want).abs() <= period + poll + seen_late + 1e-6,
                        "at {t:.1} s: estimate {got:.1} s, really {want:.1} s left"
                    );
                }
                t += poll;
            }
        }

        /// Oracle: data moving at a constant rate r, observed in jumps every `step` seconds,
        /// leaves `left / r` seconds (within one step of the counter's jumps).
        #[test]
        fn a_steady_move_gets_the_linear_estimate(
            rate in 0.1f64..100.0,
            step in 1.0f64..20.0,
            jumps in 2usize..30,
            total_factor in 1.1f64..10.0,
        ) {
            let mut e = Eta::new();
            let moved = |t: f64| rate * t;
            let end = step * jumps as f64;
            let total = moved(end) * total_factor;
            for k in 0..=jumps {
                let t = step * k as f64;
                e.observe(t, moved(t));
            }
            let got = e.seconds_left(total).expect("an estimate");
            let want = (total - moved(end)) / rate;
            prop_assert!((got - want).abs() <= want * 1e-6 + 1e-6, "got {got}, want {want}");
        }

        /// Whatever the observations: the estimate is finite and non-negative, absent when
        /// nothing is left, and while the counter stands still it never grows.
        #[test]
        fn estimates_are_sane_and_never_grow_while_nothing_moves(
            obs in proptest::collection::vec((0.0f64..60.0, -5.0f64..50.0), 1..40),
            total in 0.0f64..100.0,
            idle in proptest::collection::vec(0.1f64..20.0, 1..10),
        ) {
            let mut e = Eta::new();
            let mut t = 0.0;
            let mut mb: f64 = 0.0;
            for (dt, dmb) in obs {
                t += dt;
                mb = (mb + dmb).max(0.0);
                e.observe(t, mb);
                if let Some(s) = e.seconds_left(total) {
                    prop_assert!(s.is_finite() && s >= 0.0);
                    let done = e.last_change.unwrap().1;
                    prop_assert!(done < total);
                }
            }
            let mut before = e.seconds_left(total);
            let standing = e.last_change.map(|c| c.1).unwrap_or(0.0);
            for dt in idle {
                t += dt;
                e.observe(t, standing);
                let now = e.seconds_left(total);
                if let (Some(a), Some(b)) = (before, now) {
                    prop_assert!(b <= a, "{b} > {a}");
                }
                if before.is_none() {
                    prop_assert!(now.is_none(), "an estimate appeared while nothing moved");
                }
                before = now;
            }
        }
    }
}

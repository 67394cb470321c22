//! Stopping an execution: the wait `rebalance stop` and `rebalance pace` share.

use std::time::{Duration, Instant};

use crate::app::Reporter;
use crate::cruise_control::params::Substate;
use crate::cruise_control::{CcError, CruiseControlClient, Observer};
use crate::engine::view::ExecutorState;

/// After a stop request: polls the executor until it is idle (Cruise Control stops after the
/// batch in flight), or fails with a timeout at `deadline`.
///
/// # Errors
/// Cruise Control cannot be asked, or the executor is still busy at `deadline`.
pub async fn wait_until_idle(
    cc: &CruiseControlClient,
    poll_interval: Duration,
    started: Instant,
    deadline: Instant,
    reporter: &dyn Reporter,
    obs: &dyn Observer,
) -> Result<ExecutorState, CcError> {
    // Said once per state, not at every poll (a stop lingers ~45 s in STOPPING_EXECUTION).
    let mut said = String::new();
    loop {
        let now = cc
            .state(&[Substate::Executor], false, deadline, obs)
            .await?
            .executor_view();
        if now.is_idle() {
            return Ok(now);
        }
        if Instant::now() + poll_interval > deadline {
            return Err(CcError::DeadlineExceeded {
                waiting_for: format!("the execution to stop (executor: {})", now.describe()),
                after: started.elapsed(),
            });
        }
        if said != now.state {
            reporter.note(&format!("Waiting for the execution to stop: {}", now.state));
            said.clone_from(&now.state);
        }
        tokio::time::sleep(poll_interval).await;
    }
}

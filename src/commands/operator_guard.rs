//! Before acting on a Strimzi cluster (`--strimzi CLUSTER`): is its operator active?
//!
//! The shell around [`crate::engine::operator_guard::decide`]: reads the `Kafka` resource and
//! the cluster's `KafkaRebalance`s ([`crate::platform::kube::strimzi::observe_operator`]), prints the warnings
//! and turns a refusal into an error (exit 5, see `error_codes.rs`). Without `--strimzi` there is
//! no Strimzi resource to look at and nothing is checked. When the resources cannot be read, an
//! action is refused with the Kubernetes error (it names the missing permission); a dry run or
//! `--force` goes on with a warning instead.

use super::Ctx;
use crate::engine::operator_guard::{Action, Decision, decide};
use crate::error::CliError;

/// Checks the operator before `action`; `Ok` means go (warnings already printed).
///
/// # Errors
/// The operator or one of its rebalances is active (exit 5), or its resources cannot be read.
pub async fn check(ctx: &Ctx, action: Action, force: bool) -> Result<(), CliError> {
    let Some(cluster) = &ctx.global.kube.strimzi else {
        return Ok(());
    };
    let lenient = force || action == Action::DryRun;
    let observed = async {
        let conn = super::kube_target(&ctx.global.kube).connect().await?;
        crate::platform::kube::strimzi::observe_operator(&conn, cluster).await
    }
    .await;
    let view = match observed {
        Ok(v) => v,
        Err(e) if lenient => {
            ctx.printer.note(format!(
                "Warning: cannot tell whether the Strimzi operator is active ({e}); going on"
            ));
            return Ok(());
        }
        Err(e) => return Err(anyhow::Error::from(e).into()),
    };
    match decide(&view, action, force) {
        Decision::Go { warnings } => {
            for w in warnings {
                ctx.printer.note(w);
            }
            Ok(())
        }
        Decision::Refuse(e) => Err(e.into()),
    }
}

//! The CLI side of Cruise Control proposals, shared by the subcommands that ask for one
//! (`rebalance add|remove|full|demote|remove-disks`, `rebalance imbalance`): the clap
//! arguments resolved into the application layer's [`ProposalSpec`].

use crate::app::rebalance::ProposalSpec;
use crate::cli::rebalance::ProposalArgs;

impl From<&ProposalArgs> for ProposalSpec {
    fn from(a: &ProposalArgs) -> ProposalSpec {
        ProposalSpec {
            goals: a.goals.clone(),
            skip_hard_goal_check: a.skip_hard_goal_check,
            excluded_topics: a.excluded_topics.clone(),
            replication_throttle: a.replication_throttle,
            concurrent_partition_movements_per_broker: a.concurrent_partition_movements_per_broker,
            concurrent_leader_movements: a.concurrent_leader_movements,
            max_partition_movements_in_cluster: a.max_partition_movements_in_cluster,
            replica_movement_strategies: a.replica_movement_strategies.clone(),
            exclude_recently_demoted_brokers: a.exclude_recently_demoted_brokers,
            cc_params: a.cc_params.clone(),
            show_internal: a.show_internal,
            execute: a.execute,
            max_drift: a.max_drift,
            max_data_mb: a.max_data_mb,
            approved_plan: a.approved_plan.clone(),
            review_id: a.review_id,
            no_wait: a.no_wait,
            timeout: a.timeout,
            follow_timeout: a.follow_timeout,
            reason: a.reason.clone(),
            wait_for_ready: a.wait_for_ready,
            poll_interval: a.poll_interval,
            wait_for_reassignments: a.wait_for_reassignments,
            force: a.force,
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    /// `operate` asks with `ProposalSpec::default()`: the values of a flagless command.
    #[test]
    fn the_default_spec_is_a_flagless_commands() {
        for argv in [
            &["kafkaops", "rebalance", "full"][..],
            &["kafkaops", "rebalance", "add", "--brokers", "1"][..],
            &["kafkaops", "rebalance", "imbalance"][..],
        ] {
            let cli = crate::cli::Cli::try_parse_from(argv).unwrap();
            let crate::cli::Command::Rebalance(cmd) = cli.command else {
                panic!("parsed another command");
            };
            use crate::cli::rebalance::RebalanceCommand as R;
            let a = match cmd {
                R::Full(f) => f.proposal,
                R::Add(a) => a.proposal,
                R::Imbalance(i) => i.proposal,
                _ => panic!("parsed another subcommand"),
            };
            assert_eq!(ProposalSpec::from(&a), ProposalSpec::default(), "{argv:?}");
        }
    }
}

//! State saved by kafkaops before the roll run inside `operate`'s state was typed and before
//! flows kept failure classes instead of exit codes (files written by main 14b18e2, in
//! `tests/fixtures/state/`): each still loads, and saves back to the same JSON.

use std::path::{Path, PathBuf};

use super::{FileStore, Store, load_roll};
use crate::engine::cc_flow::Outcome;
use crate::engine::failure::FailureKind;
use crate::engine::model::NodeId;
use crate::engine::operate::{Mover, OperateState};
use crate::engine::roll::run::ActionStatus;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/state")
        .join(name)
}

async fn operate_state(name: &str) -> (OperateState, serde_json::Value) {
    let doc = FileStore::new(fixture(name))
        .load()
        .await
        .unwrap()
        .expect("the fixture exists");
    let state: OperateState = serde_json::from_str(&doc).expect("an old state loads");
    (state, serde_json::from_str(&doc).unwrap())
}

#[tokio::test]
async fn an_operate_state_with_a_roll_run_saved_before_loads_typed() {
    let (state, old) = operate_state("operate-roll.json").await;
    let Some(Mover::Roll(roll)) = &state.mover else {
        panic!("{:?}", state.mover)
    };
    let run = roll.run.as_ref().expect("the run came back typed");
    let pending = run.pending.as_ref().expect("with its pending restart");
    assert_eq!(pending.status, ActionStatus::Issued);
    assert_eq!(pending.decision.restarted_nodes(), vec![NodeId(5)]);
    assert_eq!(run.steps, 3);
    assert_eq!(serde_json::to_value(&state).unwrap(), old);
}

#[tokio::test]
async fn a_flow_that_failed_with_an_exit_code_loads_with_its_class() {
    let (state, old) = operate_state("operate-rf-failed.json").await;
    let Some(Mover::ReplicationFactors(rf)) = &state.mover else {
        panic!("{:?}", state.mover)
    };
    match rf.flow.outcome() {
        Some(Outcome::Error { failure, .. }) => {
            assert_eq!(failure.kind, FailureKind::NotReady);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(serde_json::to_value(&state).unwrap(), old);
}

#[test]
fn a_roll_state_file_saved_before_loads() {
    let path = fixture("roll-cluster-1.json");
    let saved = load_roll(&path).unwrap().expect("the fixture exists");
    let pending = saved
        .run
        .pending
        .as_ref()
        .expect("with its pending restart");
    assert_eq!(pending.status, ActionStatus::Issued);
    let old: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(serde_json::to_value(&saved).unwrap(), old);
}

use super::*;

#[test]
fn request_urls_tell_endpoint_and_dry_run() {
    assert_eq!(
        request_of("POST /kafkacruisecontrol/add_broker?brokerid=4&dryrun=false"),
        ("add_broker".to_string(), false)
    );
    assert_eq!(
        request_of("POST /kafkacruisecontrol/add_broker?brokerid=4"),
        ("add_broker".to_string(), true)
    );
    assert_eq!(
        request_of("POST /kafkacruisecontrol/rebalance?DRYRUN=FALSE"),
        ("rebalance".to_string(), false)
    );
}

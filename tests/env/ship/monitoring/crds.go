//go:build tools

// The Prometheus Operator's API types, from which build.sh generates the ServiceMonitor,
// PodMonitor and PrometheusRule CRDs (with their real OpenAPI schemas) for the test apiserver,
// using controller-gen as the Prometheus Operator project does. Never compiled into anything.
package monitoring

import _ "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

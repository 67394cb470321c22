// promcheck checks the PromQL the Helm chart ships (tests/ship.rs) with Prometheus' own parser:
//
//	promcheck rules FILE   FILE is a Prometheus rules file (`groups:`, the spec of a
//	                       PrometheusRule); it is validated as Prometheus loads one (unknown
//	                       fields, expressions, label and annotation templates)
//	promcheck exprs        stdin is a JSON array of PromQL expressions (e.g. a Grafana
//	                       dashboard's, its variables already substituted)
//
// Both print, as JSON, each expression with the metric names it selects and every label name it
// uses (matchers, by/without, on/ignoring/group_left/group_right), so the test can compare them
// with what `kafkaops operate` exports. Exit 1 when anything does not parse.
//
//	promcheck alerts FILE  stdin is a scenario, {"interval": "1m", "until": "2h", "series":
//	                       ["name{label=\"value\"} 0+1x30", ...]} (series in the notation of
//	                       Prometheus' rule unit tests, one sample per interval from time 0); every
//	                       alerting rule of FILE is evaluated at every interval up to `until`, as
//	                       Prometheus' rule manager does (pending, then firing after `for`, the
//	                       annotations expanded), and the alerts active at each evaluation are
//	                       printed as JSON.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql"
	"github.com/prometheus/prometheus/promql/parser"
	"github.com/prometheus/prometheus/rules"
	"github.com/prometheus/prometheus/tsdb"
)

type analysis struct {
	Name    string   `json:"name,omitempty"`
	Expr    string   `json:"expr"`
	Metrics []string `json:"metrics"`
	Labels  []string `json:"labels"`
	Error   string   `json:"error,omitempty"`
}

func sorted(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func analyse(p parser.Parser, name, expr string) analysis {
	a := analysis{Name: name, Expr: expr, Metrics: []string{}, Labels: []string{}}
	e, err := p.ParseExpr(expr)
	if err != nil {
		a.Error = err.Error()
		return a
	}
	metrics, names := map[string]bool{}, map[string]bool{}
	parser.Inspect(e, func(node parser.Node, _ []parser.Node) error {
		switch n := node.(type) {
		case *parser.VectorSelector:
			if n.Name != "" {
				metrics[n.Name] = true
			}
			for _, m := range n.LabelMatchers {
				if m.Name == labels.MetricName {
					if m.Type == labels.MatchEqual {
						metrics[m.Value] = true
					}
					continue
				}
				names[m.Name] = true
			}
		case *parser.AggregateExpr:
			for _, l := range n.Grouping {
				names[l] = true
			}
		case *parser.BinaryExpr:
			if vm := n.VectorMatching; vm != nil {
				for _, l := range vm.MatchingLabels {
					names[l] = true
				}
				for _, l := range vm.Include {
					names[l] = true
				}
			}
		}
		return nil
	})
	a.Metrics, a.Labels = sorted(metrics), sorted(names)
	return a
}

type scenario struct {
	Interval string   `json:"interval"`
	Until    string   `json:"until"`
	Series   []string `json:"series"`
}

type activeAlert struct {
	Name        string            `json:"name"`
	State       string            `json:"state"`
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
}

type evaluation struct {
	Seconds int64         `json:"seconds"`
	Alerts  []activeAlert `json:"alerts"`
}

// alerts evaluates the alerting rules of file over the scenario on stdin.
func alerts(p parser.Parser, file string) []evaluation {
	var sc scenario
	if err := json.NewDecoder(os.Stdin).Decode(&sc); err != nil {
		fail("stdin is not a scenario: %v", err)
	}
	interval, err := model.ParseDuration(sc.Interval)
	if err != nil {
		fail("interval: %v", err)
	}
	until, err := model.ParseDuration(sc.Until)
	if err != nil {
		fail("until: %v", err)
	}
	dir, err := os.MkdirTemp("", "promcheck-")
	if err != nil {
		fail("%v", err)
	}
	defer os.RemoveAll(dir)
	db, err := tsdb.Open(dir, nil, nil, tsdb.DefaultOptions(), nil)
	if err != nil {
		fail("tsdb: %v", err)
	}
	defer db.Close()
	ctx := context.Background()
	app := db.Appender(ctx)
	step := time.Duration(interval).Milliseconds()
	for _, s := range sc.Series {
		lbls, values, err := p.ParseSeriesDesc(s)
		if err != nil {
			fail("series %q: %v", s, err)
		}
		for i, v := range values {
			if v.Omitted {
				continue
			}
			if _, err := app.Append(0, lbls, int64(i)*step, v.Value); err != nil {
				fail("append %q: %v", s, err)
			}
		}
	}
	if err := app.Commit(); err != nil {
		fail("commit: %v", err)
	}
	groups, errs := rulefmt.ParseFile(file, false, model.UTF8Validation, p, slog.Default())
	if len(errs) > 0 {
		fail("%s: %v", file, errs)
	}
	var alerting []*rules.AlertingRule
	for _, g := range groups.Groups {
		for _, r := range g.Rules {
			if r.Alert == "" {
				continue
			}
			expr, err := p.ParseExpr(r.Expr)
			if err != nil {
				fail("%s: %v", r.Alert, err)
			}
			alerting = append(alerting, rules.NewAlertingRule(r.Alert, expr,
				time.Duration(r.For), time.Duration(r.KeepFiringFor),
				labels.FromMap(r.Labels), labels.FromMap(r.Annotations), labels.EmptyLabels(),
				"", true, slog.New(slog.DiscardHandler)))
		}
	}
	engine := promql.NewEngine(promql.EngineOpts{
		MaxSamples: 10000000, Timeout: time.Minute, LookbackDelta: 5 * time.Minute,
		EnableAtModifier: true, EnableNegativeOffset: true,
	})
	query := rules.EngineQueryFunc(engine, db)
	var out []evaluation
	for t := int64(0); t <= time.Duration(until).Milliseconds(); t += step {
		ev := evaluation{Seconds: t / 1000, Alerts: []activeAlert{}}
		for _, r := range alerting {
			if _, err := r.Eval(ctx, 0, time.UnixMilli(t), query, nil, 0); err != nil {
				fail("%s at %d s: %v", r.Name(), t/1000, err)
			}
			for _, a := range r.ActiveAlerts() {
				ev.Alerts = append(ev.Alerts, activeAlert{
					Name: r.Name(), State: a.State.String(),
					Labels: a.Labels.Map(), Annotations: a.Annotations.Map(),
				})
			}
		}
		out = append(out, ev)
	}
	return out
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "promcheck: "+format+"\n", args...)
	os.Exit(1)
}

func main() {
	if len(os.Args) < 2 {
		fail("usage: promcheck rules FILE | promcheck exprs < exprs.json | promcheck alerts FILE < scenario.json")
	}
	if os.Args[1] == "alerts" {
		if len(os.Args) != 3 {
			fail("usage: promcheck alerts FILE < scenario.json")
		}
		if err := json.NewEncoder(os.Stdout).Encode(alerts(parser.NewParser(parser.Options{}), os.Args[2])); err != nil {
			fail("%v", err)
		}
		return
	}
	p := parser.NewParser(parser.Options{})
	var out []analysis
	bad := false
	switch os.Args[1] {
	case "rules":
		if len(os.Args) != 3 {
			fail("usage: promcheck rules FILE")
		}
		groups, errs := rulefmt.ParseFile(os.Args[2], false, model.UTF8Validation, p, slog.Default())
		if len(errs) > 0 {
			for _, e := range errs {
				fmt.Fprintf(os.Stderr, "promcheck: %s: %v\n", os.Args[2], e)
			}
			os.Exit(1)
		}
		for _, g := range groups.Groups {
			for _, r := range g.Rules {
				name := r.Alert
				if name == "" {
					name = r.Record
				}
				out = append(out, analyse(p, name, r.Expr))
			}
		}
	case "exprs":
		var exprs []string
		if err := json.NewDecoder(os.Stdin).Decode(&exprs); err != nil {
			fail("stdin is not a JSON array of strings: %v", err)
		}
		for _, e := range exprs {
			a := analyse(p, "", e)
			bad = bad || a.Error != ""
			out = append(out, a)
		}
	default:
		fail("unknown command %q", os.Args[1])
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fail("%v", err)
	}
	if bad {
		os.Exit(1)
	}
}

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
package main

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"sort"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
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

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "promcheck: "+format+"\n", args...)
	os.Exit(1)
}

func main() {
	if len(os.Args) < 2 {
		fail("usage: promcheck rules FILE | promcheck exprs < exprs.json")
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

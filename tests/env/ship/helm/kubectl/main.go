// kubectl for the tests of the shipping files (tests/ship.rs): krew's manifest validator runs
// `kubectl krew install`, and the installed plugin is run as `kubectl kafkaops`. Built from
// k8s.io/kubectl at the version Helm uses, so it shares Helm's compiled packages.
package main

import (
	"k8s.io/component-base/cli"
	"k8s.io/kubectl/pkg/cmd"
	"k8s.io/kubectl/pkg/cmd/util"
)

func main() {
	if err := cli.RunNoErrOutput(cmd.NewDefaultKubectlCommand()); err != nil {
		util.CheckErr(err)
	}
}

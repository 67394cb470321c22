// etcd for the kafkaops test harness (the same entry point as the etcd binary).
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}

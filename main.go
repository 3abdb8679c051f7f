// Command privlab is a terminal workbench for anonymizing microdata with
// the methods of five papers. With no arguments (or a file) it opens the
// workbench; its subcommands are the headless twins of every workbench
// action (SPEC Section 5). The command line lives in package ui/cli
// (flags, help, every command, exit codes and their scripted tests);
// privlab help lists the commands.
package main

import (
	"os"

	"privlab/ui/cli"
)

func main() {
	os.Exit(cli.Execute(os.Args[1:], os.Stdout, os.Stderr))
}

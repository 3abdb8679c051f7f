#!/usr/bin/env bash
# End-to-end check of the workbench in a real terminal (tmux): start on
# the default dataset, move to the Method pane, change a parameter and see
# the figures change, export from the Export pane, and verify the release
# with `privlab check`; import a header-less file, export, reopen the
# release (with its original, from the picker, and as privlab DIR, which
# finds the original through the audit record); save a project and
# reopen it from another folder; at 80x24 and 120x34, ! on the warnings,
# the Export pane scrolling and writing beside its project, a header-less
# population named with the import wizard, 0 opening the tour's tab; and
# every command the tours print. Installs tmux when it can, skips (exit
# 0, with a message) when it cannot.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

if ! command -v tmux >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "e2e: installing tmux"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux) >/dev/null 2>&1 || true
  fi
fi
if ! command -v tmux >/dev/null 2>&1; then
  echo "e2e: SKIPPED - tmux is not installed and cannot be installed here"
  exit 0
fi

work=$(mktemp -d)
sock="$work/tmux.sock"
cleanup() { tmux -S "$sock" kill-server >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

(cd "$root" && go build -o "$work/privlab" .)
cd "$work"

screen() { tmux -S "$sock" capture-pane -t e2e -p; }
# wait_for TEXT [SECONDS]: poll the screen until TEXT appears.
wait_for() {
  local text=$1 limit=${2:-30} i=0
  while [ $i -lt $((limit * 10)) ]; do
    if screen | grep -qF -- "$text"; then return 0; fi
    sleep 0.1; i=$((i + 1))
  done
  echo "e2e: FAILED waiting for: $text"; echo "---- screen ----"; screen; exit 1
}
# wait_re REGEX [SECONDS]: like wait_for with an extended regular expression.
wait_re() {
  local re=$1 limit=${2:-30} i=0
  while [ $i -lt $((limit * 10)) ]; do
    if screen | grep -qE -- "$re"; then return 0; fi
    sleep 0.1; i=$((i + 1))
  done
  echo "e2e: FAILED waiting for /$re/"; echo "---- screen ----"; screen; exit 1
}
keys() { tmux -S "$sock" send-keys -t e2e "$@"; sleep 0.3; }

tmux -S "$sock" new-session -d -s e2e -x 100 -y 30 "TERM=xterm-256color ./privlab 2>stderr.txt; echo exited \$? >> stderr.txt"

echo "e2e: start screen"
wait_for "139 groups"
wait_for "Groups (139)"

echo "e2e: change grouping on the Method pane"
keys 4
wait_for "Live preview"
keys Down; keys Down
keys +
wait_for "mondrian:100"
wait_for "72 groups"

echo "e2e: target = each group's own distribution: no generalization left"
keys Up; keys Up
keys +
wait_for "· group ·"
wait_re "sum of ranges +0 *$"

echo "e2e: preview shows the new groups"
keys 5
wait_for "Groups (72)"

echo "e2e: export"
keys 7
wait_for "will write"
keys Enter
wait_re "wrote .*/release-census-distribution" 60
ls release-census-distribution/qi.csv release-census-distribution/sa.csv release-census-distribution/hierarchy.csv release-census-distribution/manifest.json >/dev/null
test -f release-census-distribution.audit.json

echo "e2e: quit"
keys q
sleep 0.5
if tmux -S "$sock" has-session -t e2e 2>/dev/null; then
  # unexported changes were exported, so q quits at once; if still open, answer y
  keys y
fi

echo "e2e: privlab check"
./privlab check release-census-distribution --original dataset:census
if grep -q "goroutine\|panic" stderr.txt 2>/dev/null; then
  echo "e2e: FAILED the workbench printed a stack trace"; cat stderr.txt; exit 1
fi

# ---- a privacy officer's day with a file of their own ----
cp "$root/ui/testdata/import/people.data" "$root/ui/testdata/import/people_hierarchy_zip.csv" .
tmux -S "$sock" kill-server >/dev/null 2>&1 || true
rm -f stderr.txt
tmux -S "$sock" new-session -d -s e2e -x 100 -y 30 "TERM=xterm-256color ./privlab 2>stderr.txt; echo exited \$? >> stderr.txt"
wait_for "139 groups"

echo "e2e: open a header-less file through the import wizard"
keys C-o
wait_for "Open a data file"
keys /
keys C-u
tmux -S "$sock" send-keys -t e2e -l "$work/people.data"; sleep 0.3
keys Enter
wait_for "header row: no"
keys N
keys C-u
tmux -S "$sock" send-keys -t e2e -l "age,sex,zip,disease"; sleep 0.3
keys Enter
wait_for "disease"
keys Enter
wait_for "people.data (24 rows)"

echo "e2e: roles"
keys Space; keys Down; keys Space; keys Down; keys Space; keys Down; keys a
wait_for "QI: age, sex, zip"

echo "e2e: pick the hierarchy file of zip"
keys 2
wait_for "Attributes"
keys Down; keys Down
wait_for "found beside the data: people_hierarchy_zip.csv"
keys f
wait_for "Pick a hierarchy file for zip"
keys /
keys C-u
tmux -S "$sock" send-keys -t e2e -l "$work/people_hierarchy_zip.csv"; sleep 0.3
keys Enter
wait_for "from people_hierarchy_zip.csv"

echo "e2e: a long run (5000 fake values per group), cancelled: export refuses"
keys Down
keys b; keys b
wait_for "disease: 7 nodes"
keys 4
wait_for "Live preview"
keys Down; keys Down; keys Down
keys Enter
keys C-u
tmux -S "$sock" send-keys -t e2e -l "5000"; sleep 0.2
keys Enter
wait_for "computing"
keys C-x
wait_for "stale"
keys 7
wait_for "will write"
keys Enter
wait_for "not exported: the preview shows earlier settings"

echo "e2e: back to no fakes, export"
keys 4
keys Enter
keys C-u
tmux -S "$sock" send-keys -t e2e -l "0"; sleep 0.2
keys Enter
wait_for "✓ private"
keys 7
keys Enter
wait_re "wrote .*/release-people-distribution" 60
test -f release-people-distribution/manifest.json
keys q
sleep 0.5
if tmux -S "$sock" has-session -t e2e 2>/dev/null; then keys y; fi

echo "e2e: reopen the release in the workbench, with its original"
tmux -S "$sock" kill-server >/dev/null 2>&1 || true
tmux -S "$sock" new-session -d -s e2e -x 100 -y 30 "TERM=xterm-256color ./privlab release-people-distribution --original people.data 2>stderr2.txt; echo exited \$? >> stderr2.txt"
wait_for "received release release-people-distribution"
wait_for "the release passes every check against"
keys q
sleep 0.5
./privlab check release-people-distribution --original people.data

echo "e2e: open the release from the picker over census: its own input is the original; ctrl+l leaves it"
tmux -S "$sock" kill-server >/dev/null 2>&1 || true
tmux -S "$sock" new-session -d -s e2e -x 100 -y 30 "TERM=xterm-256color ./privlab 2>stderr3.txt; echo exited \$? >> stderr3.txt"
wait_for "139 groups"
keys C-o
wait_for "a release folder"
keys /
keys C-u
tmux -S "$sock" send-keys -t e2e -l "$work/release-people-distribution"; sleep 0.3
keys Enter
wait_for "received release"
wait_for "people.data, found through"
wait_for "1 Release  2 Query  3 Data"
keys C-l
wait_for "Load an embedded dataset"
keys Enter
wait_for "1 Data  2 Hierarchy"
# employees is Koudas et al.'s worked example: it opens with Figure 2's
# grouping and target, and the status line says so.
wait_for "Groups (3)"
wait_for "employees is the worked example"
keys q
sleep 0.5
if tmux -S "$sock" has-session -t e2e 2>/dev/null; then keys y; fi

echo "e2e: privlab DIR without --original finds the original through the audit record"
tmux -S "$sock" kill-server >/dev/null 2>&1 || true
tmux -S "$sock" new-session -d -s e2e -x 100 -y 30 "TERM=xterm-256color ./privlab release-people-distribution 2>stderr4.txt; echo exited \$? >> stderr4.txt"
wait_for "the release passes every check against its input"
wait_for ", found through"
keys q
sleep 0.5

echo "e2e: a population on the Export pane (P): the plan's attacks and the export read it, check recomputes them with it"
printf 'name,zipcode,gender\nAlice,91110,F\nBob,91110,M\nCarol,91110,M\nDebra,91130,F\nElaine,91210,F\nGrace,91220,F\nHelen,91240,F\nJason,91310,M\nKyle,91320,M\nLeo,91330,M\nNancy,91340,F\nOscar,91110,M\nPaula,91130,F\nQuinn,91330,M\n' > town.csv
tmux -S "$sock" kill-server >/dev/null 2>&1 || true
tmux -S "$sock" new-session -d -s e2e -x 100 -y 30 "TERM=xterm-256color ./privlab dataset:employees 2>stderr8.txt; echo exited \$? >> stderr8.txt"
wait_for "employees (11 rows)"
keys 7
wait_for "population none: not run for lack of a population: membership"
keys P
keys C-u
tmux -S "$sock" send-keys -t e2e -l "town.csv"; sleep 0.3
keys Enter
wait_for "population town.csv"
wait_for "⚠ 7 re-identified"
keys Enter
wait_re "wrote .*/release-employees-distribution" 60
keys q
sleep 0.5
if tmux -S "$sock" has-session -t e2e 2>/dev/null; then keys y; fi
grep -q '"population"' release-employees-distribution/manifest.json
./privlab check release-employees-distribution --original dataset:employees --population town.csv | tee check-town.txt
grep -q "attacks: the 4 attacks the manifest states agree with the files" check-town.txt

echo "e2e: save a project (ctrl+s, then S as another file) and reopen it from another folder"
mkdir -p data proj elsewhere
./privlab gen census --out data/census.csv >/dev/null
tmux -S "$sock" kill-server >/dev/null 2>&1 || true
tmux -S "$sock" new-session -d -s e2e -x 100 -y 30 "TERM=xterm-256color ./privlab data/census.csv --qi age,sex,education --sa occupation 2>stderr5.txt; echo exited \$? >> stderr5.txt"
wait_re "[0-9] groups? │"
keys C-s
wait_for "Save the whole configuration"
keys C-u
tmux -S "$sock" send-keys -t e2e -l "proj/project.json"; sleep 0.3
keys Enter
wait_for "saved proj/project.json"
keys S
wait_for "Save the project as another file"
keys C-u
tmux -S "$sock" send-keys -t e2e -l "proj/copy.json"; sleep 0.3
keys Enter
wait_for "saved proj/copy.json"
keys q
sleep 0.5
grep -q '"input": "../data/census.csv"' proj/project.json
grep -q '"input": "../data/census.csv"' proj/copy.json
tmux -S "$sock" kill-server >/dev/null 2>&1 || true
tmux -S "$sock" new-session -d -s e2e -x 100 -y 30 "cd elsewhere && TERM=xterm-256color ../privlab ../proj/project.json 2>../stderr6.txt; echo exited \$? >> ../stderr6.txt"
wait_for "../data/census.csv (10,000 rows)"
wait_re "[0-9] groups? │"
keys q
sleep 0.5
echo "e2e: a teaching tour: privlab tour kja steps through the paper's points, ctrl+t lists the tours"
tmux -S "$sock" kill-server >/dev/null 2>&1 || true
tmux -S "$sock" new-session -d -s e2e -x 100 -y 30 "TERM=xterm-256color ./privlab tour kja 2>stderr7.txt; echo exited \$? >> stderr7.txt"
wait_for "Step 1 of 6 · Figure 3"
wait_for "Groups (4)"
keys n; keys n; keys n
wait_for "Step 4 of 6 · Figure 5"
wait_for "kja-fig1 + kja-fig1-pd"
wait_for "NCP 0.286 │"
keys C-t
wait_for "Teaching tours"
keys Escape
keys q
sleep 0.5
# ---- issue 35 at 80x24 and 120x34: ! shows the warnings in full (6), the
# Export pane scrolls (2) and writes beside the project file, shown
# absolute (5), a header-less population is named with the import
# wizard (1), 0 opens the tour's tab (10) ----
printf 'Alice,91110,F\nBob,91110,M\nCarol,91110,M\nDebra,91130,F\nElaine,91210,F\nGrace,91220,F\nHelen,91240,F\nJason,91310,M\nKyle,91320,M\nLeo,91330,M\nNancy,91340,F\nOscar,91110,M\nPaula,91130,F\nQuinn,91330,M\n' > town.data
for size in 80x24 120x34; do
  w=${size%x*} h=${size#*x}
  mkdir -p "s$size/proj" "s$size/cwd"
  printf '{"input": "dataset:employees", "method": "distribution"}\n' > "s$size/proj/emp.json"
  tmux -S "$sock" kill-server >/dev/null 2>&1 || true
  tmux -S "$sock" new-session -d -s e2e -x "$w" -y "$h" "cd s$size/cwd && TERM=xterm-256color ../../privlab ../proj/emp.json 2>../../stderr9-$size.txt; echo exited \$? >> ../../stderr9-$size.txt"
  wait_for "employees (11 rows)"
  wait_for "✓ private"

  echo "e2e $size: ! shows the current warnings in full"
  keys '!'
  wait_for "1 warning"
  wait_for "finds their record"
  keys Escape
  wait_for "5 Prev"

  echo "e2e $size: the Advisor tab (A) maps every method's grid (r), point by point"
  keys A
  wait_for "no map yet"
  keys r
  wait_for "on the front" 60
  keys Right
  wait_for "On the front"

  echo "e2e $size: the Export pane scrolls, its directory is beside the project, absolute"
  keys 7
  wait_for "Export the release"
  wait_for "/s$size/proj/release-employees-distribution"
  wait_re "↓ [0-9]+ more lines"
  keys G
  wait_for "what an attacker can still do"
  keys Home
  wait_for "Export the release"

  echo "e2e $size: a header-less population, named with the import wizard (N)"
  keys P
  keys C-u
  tmux -S "$sock" send-keys -t e2e -l "../../town.data"; sleep 0.3
  keys Enter
  keys '!'
  wait_for "The attacks could not be measured"
  wait_for "name its columns"
  keys Escape
  keys N
  wait_for "header row: no"
  keys N
  keys C-u
  tmux -S "$sock" send-keys -t e2e -l "name,zipcode,gender"; sleep 0.3
  keys Enter
  wait_for "zipcode"
  keys Enter
  wait_for "Export the release"
  echo "e2e $size: the population changed: the advisor's map is stale, and the export draws none"
  keys A
  wait_for "STALE"
  keys 7
  wait_for "Export the release"
  keys G
  wait_for "membership: not bounded"
  keys Enter
  wait_re "wrote .*/s$size/proj/release-employees-distribution" 60
  test -f "s$size/proj/release-employees-distribution/manifest.json"
  test ! -e "s$size/cwd/release-employees-distribution"
  test ! -e "s$size/proj/release-employees-distribution.advisor-map.svg"
  keys C-s
  wait_for "saved"
  grep -q '"population_columns"' "s$size/proj/emp.json"
  keys q
  sleep 0.5
  if tmux -S "$sock" has-session -t e2e 2>/dev/null; then keys y; fi

  echo "e2e $size: 0 opens the tour's tab (the tenth with charts)"
  tmux -S "$sock" kill-server >/dev/null 2>&1 || true
  tmux -S "$sock" new-session -d -s e2e -x "$w" -y "$h" "TERM=xterm-256color ./privlab tour lossyjoin 2>stderr10-$size.txt; echo exited \$? >> stderr10-$size.txt"
  wait_for "Step 1 of 6"
  wait_for "0 Tour"
  keys 1
  wait_for "Columns of"
  keys 0
  wait_for "Step 1 of 6"
  keys q
  sleep 0.5
  if tmux -S "$sock" has-session -t e2e 2>/dev/null; then keys y; fi
done

echo "e2e: every command a tour prints runs as printed"
for t in $(./privlab tour | awk 'NR > 1 && $2 ~ /^[0-9]+$/ {print $1}'); do
  n=0
  while IFS= read -r cmd; do
    n=$((n + 1))
    cmd=${cmd#*run: privlab }
    eval "./privlab ${cmd/ DIR/ tour-$t-$n}" >/dev/null || { echo "e2e: FAILED tour $t step $n: privlab $cmd"; exit 1; }
  done < <(./privlab tour "$t" --steps | grep "run: privlab ")
  [ "$n" -eq 6 ] || { echo "e2e: FAILED tour $t printed $n commands"; exit 1; }
done
if grep -q "goroutine\|panic" stderr*.txt 2>/dev/null; then
  echo "e2e: FAILED the workbench printed a stack trace"; cat stderr*.txt; exit 1
fi
echo "e2e: passed"

#!/usr/bin/env python3
"""Greedy minimisation for Scripts/fuzz-parity.sh: removes steps, then option and filter members,
then function outcomes, keeping each removal while Swift's trace still differs from TanStack's
(both runners replay it without error). Usage: fuzz-minimise.py RUNNER RUN_MJS FIXTURE OUT WORKDIR"""
import json, os, shutil, subprocess, sys

runner, harness, source, target, work = sys.argv[1:6]
fixture = json.load(open(source))
fid = fixture["id"]
area = fid.rsplit("-", 1)[0]
specs = os.path.join(work, "specs")

def differs(candidate):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(specs, area))
    with open(os.path.join(specs, area, fid + ".json"), "w") as f:
        json.dump(candidate, f, indent=1)
    with open(os.path.join(specs, area + ".md"), "w") as f:
        f.write("[%s]\n" % fid)
    traces, report = os.path.join(work, "tanstack"), os.path.join(work, "swift.json")
    node = subprocess.run(["node", harness, specs, "--record", traces], capture_output=True, timeout=60)
    if node.returncode != 0:
        return False
    try:
        subprocess.run([runner, specs, "--compare", traces, "--json", report], capture_output=True, timeout=60)
        results = json.load(open(report))["results"]
    except Exception:
        return False
    return len(results) == 1 and results[0]["status"] == "fail"

def shrink_list(owner, key, keep_last=False):
    changed, i = False, len(owner[key]) - (2 if keep_last else 1)
    while i >= 0 and len(owner[key]) > 1:
        removed = owner[key].pop(i)
        if differs(fixture):
            changed = True
        else:
            owner[key].insert(i, removed)
        i -= 1
    return changed

def shrink_members(obj, protected):
    changed = False
    for name in [k for k in obj if k not in protected]:
        value = obj.pop(name)
        if differs(fixture):
            changed = True
        else:
            obj[name] = value
    return changed

if not differs(fixture):
    sys.exit(1)
while True:
    changed = shrink_list(fixture, "steps", keep_last=False) if len(fixture["steps"]) > 1 else False
    for step in fixture["steps"]:
        if isinstance(step.get("tick"), list) and len(step["tick"]) > 1:
            changed |= shrink_list(step, "tick")
        changed |= shrink_members(step, {"at"} | {k for k in step if k not in ("as",)} - {"as"})
        for operation in [k for k in step if k not in ("at", "as")]:
            arguments = step[operation]
            if isinstance(arguments, dict):
                changed |= shrink_members(arguments, {"observer", "options", "filters", "queryKey", "queryFn", "mutationFn"})
                for nested in ("options", "filters"):
                    if isinstance(arguments.get(nested), dict):
                        changed |= shrink_members(arguments[nested], {"queryKey", "queryFn", "mutationFn"})
    for client_part in ("client",):
        queries = fixture.get(client_part, {}).get("defaultOptions", {}).get("queries")
        if isinstance(queries, dict):
            changed |= shrink_members(queries, set())
    for name in list(fixture.get("functions", {})):
        if len(fixture["functions"]) > 1:
            outcomes = fixture["functions"].pop(name)
            if differs(fixture):
                changed = True
                continue
            fixture["functions"][name] = outcomes
        outcomes = fixture["functions"][name]
        if len(outcomes) > 1:
            changed |= shrink_list(fixture["functions"], name, keep_last=True)
    if not changed:
        break
differs(fixture)  # leave the minimised traces in WORKDIR
with open(target, "w") as f:
    json.dump(fixture, f, indent=1)
    f.write("\n")

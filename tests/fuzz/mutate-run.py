#!/usr/bin/env python3
"""Structured fuzzing of `flexion-cli run` on short spans (issue 14).

Takes the examples, applies a few structured mutations (extreme numbers,
element counts, deleted keys, duplicated items, odd ids, wrong types), and
runs each model for a few steps. Fails on anything but the documented
outcomes:

  - exit 0 with finite numbers only (summary and energy CSV),
  - exit 1 (a command-line value refused), 2 (refused, every message line
    starting with a JSON path), 3 (solver failure, with a message), 4;
  - never a signal, a sanitizer report or a hang (per-run timeout);
  - `check` agrees with `run` on what is refused before the first step;
  - exit 0 is a success only with the books kept: max |balance| at most
    BALANCE_LIMIT of the energy scale (the run's summary), and every probe
    within the +-1e6 m box (issue 25: 12 mutants ended at 1e7..4e27 m with
    exit 0). This holds fully once the integrator refuses such steps (helper
    `newton`: step acceptance and the state box); until then a finding of
    this kind is the integrator's, not the mutator's.

New input kinds (issue 25): drags, noise profiles (white, OU) on loads, and
the command lines of ensemble, ensemble-merge and modes beside run's.

  mutate-run.py FLEXION_CLI SOURCE_ROOT WORK_DIR [SECONDS]
  FLEXION_FUZZ_SECONDS overrides SECONDS; FLEXION_FUZZ_SEED replays a run.
"""
import copy
import glob
import json
import math
import os
import random
import re
import subprocess
import sys
import time

EXTREMES = [0, -0.0, 1e308, -1e308, 5e-324, 1e-300, 1e300, 1e6, 1.000001e6, -1e6, 1e-9,
            9e-10, 1e30, 1.1e30, 1e-30, 9e-31, 2.0 ** 53 + 1, 1e15, 0.5, -1, 1]
ODD_IDS = ["a,b", 'q"uote', "new\nline", "ü€", "", " ", "x" * 300, "links", "[0]"]
# s per run: far above any short span, so a timeout is a hang. A legitimate
# run can take tens of seconds: a 5000-element blade beside a floating-frame
# link under a 1e6 N m white-noise moment (seed 1293436819, model 1467) needs
# 1024 substeps of a 30,000-unknown system and ends, with its books kept, in
# 34 s; `ensemble --samples 8` of a 20-element floating-frame cantilever
# under a 1e6 N tip load (gamma = 1700: 200 Newton iterations and up to 256
# substeps per step) takes 66-84 s (seed 3067811672, model 42). Such runs are
# reported as slow, not as findings; a hang is no end within 300 s (the
# meson timeout of this test is 600 s).
TIMEOUT = 300
SLOW = 30
BALANCE_LIMIT = 1e-10  # of the energy scale: an exit 0 above it broke the books
BOX = 1e6  # m: the state box of docs/model-format.md's Limits
SUMMARY_BALANCE = re.compile(r"max \|balance\| \S+ J \(([^ ]+) of the energy scale\)")
PATH_LINE = re.compile(r"^  (\(root\)|[A-Za-z_][A-Za-z_0-9]*(\[\d+\])?([.\[][^ :]*)?): ")


def leaves(node, path=()):
    """(path, value) of every leaf and container below node."""
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from leaves(v, path + (i,))


def get(node, path):
    for p in path:
        node = node[p]
    return node


def put(node, path, value):
    get(node, path[:-1])[path[-1]] = value


def items(model, key):
    """model[key] if it is a list, else []: wrong_type may have made the
    links, joints or loads 1, True or None (seed 198275084 crashed the
    fuzzer itself on a load appended to an int)."""
    v = model.get(key)
    return v if isinstance(v, list) else []


def appendable(model, key):
    """model[key], made a list if absent, or None if it is not one."""
    v = model.setdefault(key, [])
    return v if isinstance(v, list) else None


def mutate_number(rng, model):
    nums = [p for p, v in leaves(model) if p and isinstance(v, (int, float))
            and not isinstance(v, bool)]
    if not nums:
        return
    p = rng.choice(nums)
    v = get(model, p)
    choices = EXTREMES + [v * 1e10, v * 1e-10, -v, v + 1e-12, v * 1.5]
    put(model, p, rng.choice(choices))


def mutate_elements(rng, model):
    links = model.get("links")
    if isinstance(links, list) and links and isinstance(links[0], dict):
        rng.choice(links)["elements"] = rng.choice([1, 2, 3, 50, 500, 5000, 10 ** 6, 0, 1.5])


def delete_key(rng, model):
    objs = [p for p, v in leaves(model) if isinstance(v, dict) and v]
    p = rng.choice(objs)
    obj = get(model, p)
    del obj[rng.choice(list(obj))]


def duplicate_item(rng, model):
    lists = [p for p, v in leaves(model) if isinstance(v, list) and v]
    if not lists:
        return
    lst = get(model, rng.choice(lists))
    item = copy.deepcopy(rng.choice(lst))
    if isinstance(item, dict) and "id" in item and rng.random() < 0.7:
        item["id"] = str(item["id"]) + "'"
    lst.insert(rng.randrange(len(lst) + 1), item)


def odd_string(rng, model):
    strs = [p for p, v in leaves(model) if p and isinstance(v, str) and p[-1] != "format"]
    if not strs:
        return
    p = rng.choice(strs)
    words = ODD_IDS + ["pin", "clamp", "guided", "none", "weld", "free-free", "pinned",
                       "clamped-clamped", "guided", "auto", "table", "sine", "hat"]
    put(model, p, rng.choice(words))


def same_place(rng, model):
    joints = model.get("joints")
    if isinstance(joints, list) and len(joints) >= 2 and all(isinstance(j, dict) for j in joints):
        a, b = rng.sample(joints, 2)
        if "at" in a:
            b["at"] = copy.deepcopy(a["at"])
            if rng.random() < 0.5 and isinstance(b["at"], list) and b["at"]:
                b["at"][0] = b["at"][0] + rng.choice([5e-324, 1e-12, 1e-9])


def wrong_type(rng, model):
    nodes = [p for p, v in leaves(model) if p]
    put(model, rng.choice(nodes), rng.choice([None, "1", [1, 2], {}, True, [], 1]))


def random_profile(rng):
    kind = rng.choice(["white", "ou"])
    p = {"type": kind}
    if kind == "white":
        p["sigma"] = rng.choice(EXTREMES + [20, 1e6, 1.1e6])
    else:
        p["std"] = rng.choice(EXTREMES + [20, 1e6, 1.1e6])
        p["tau"] = rng.choice(EXTREMES + [0.01])
    if rng.random() < 0.5:
        p["times"] = {"type": "step-off", "t1": rng.choice(EXTREMES)}
    return p


def add_noise(rng, model):
    """A noise profile on a load (a new joint load if there is none)."""
    joints = [j for j in items(model, "joints") if isinstance(j, dict) and "id" in j]
    loads = appendable(model, "loads")
    if loads is None:
        return
    if not loads and joints:
        loads.append({"joint": rng.choice(joints)["id"], "moment": rng.choice(EXTREMES)})
    if loads and isinstance(loads[0], dict):
        load = rng.choice(loads)
        if isinstance(load, dict):
            load["profile"] = random_profile(rng)


def add_drag(rng, model):
    """A drag on a link point or a joint, along a random path."""
    links = [l for l in items(model, "links") if isinstance(l, dict) and "id" in l]
    if not links:
        return
    link = rng.choice(links)
    drag = {"link": link["id"], "s": rng.choice([0, 0.5, 1, 1.5, -1])} if rng.random() < 0.7 \
        else {"joint": link.get("to")}
    t = 0.0
    drag["path"] = []
    for _ in range(rng.randint(1, 4)):
        drag["path"].append([t, rng.choice(EXTREMES), rng.choice(EXTREMES)])
        t += rng.choice([0.01, 0.1, 1, 0, -1])
    if rng.random() < 0.5:
        drag["frequency"] = rng.choice(EXTREMES + [2, 1e6, 2e6])
    if rng.random() < 0.3:
        drag["release"] = rng.choice(EXTREMES)
    drags = appendable(model, "drags")
    if drags is not None:
        drags.append(drag)


def floating_link(rng, model):
    """A link turned floating-frame, with a frame, damping and ends at random."""
    links = [l for l in items(model, "links") if isinstance(l, dict)]
    if not links:
        return
    link = rng.choice(links)
    link["model"] = "floating-frame"
    for key in ("formulation", "rigid", "damping"):
        if rng.random() < 0.8:
            link.pop(key, None)
    if rng.random() < 0.3:
        link["frame"] = rng.choice(["mean-axis", "attached"])
    if rng.random() < 0.3:
        link["damping"] = {"kelvin_voigt": rng.choice(EXTREMES)}
    if rng.random() < 0.5:
        letters = ["FF", "FV", "VF", "VV", "XF", ""]
        link["ends"] = {side: rng.choice(letters) for side in ("from", "to") if rng.random() < 0.7}


def add_link_load(rng, model):
    """A point load somewhere along a link, spatial or material."""
    links = [l for l in items(model, "links") if isinstance(l, dict) and "id" in l]
    if not links:
        return
    load = {"link": rng.choice(links)["id"], "s": rng.choice([0, 0.37, 0.5, 1, 1.5, -1]),
            "force": [rng.choice(EXTREMES), rng.choice(EXTREMES)]}
    if rng.random() < 0.5:
        load["moment"] = rng.choice(EXTREMES)
    if rng.random() < 0.3:
        load["frame"] = "material"
    if rng.random() < 0.5:
        load["profile"] = random_profile(rng)
    loads = appendable(model, "loads")
    if loads is not None:
        loads.append(load)


TINY = "tiny"  # the id of tiny_link's load: its model must not freeze


def tiny_link(rng, model):
    """A link shrunk to 1e-9..1e-6 m (its far joint moved next to its near
    one), often floating-frame, with a constant point load at its tip that
    must move it (issue 31: a 1 N load on a 1e-7 m floating-frame link took 0
    Newton iterations and never moved, exit 0)."""
    links = [l for l in items(model, "links") if isinstance(l, dict) and "id" in l]
    joints = {j["id"]: j for j in items(model, "joints")
              if isinstance(j, dict) and isinstance(j.get("id"), str)}
    if not links:
        return
    link = rng.choice(links)
    ends = [link.get(side) for side in ("from", "to")]
    if not all(isinstance(e, str) for e in ends):
        return
    a, b = joints.get(ends[0]), joints.get(ends[1])
    if not (a and b and isinstance(a.get("at"), list) and len(a["at"]) == 2
            and all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in a["at"])):
        return
    length = rng.choice([1e-9, 1e-8, 1e-7, 1e-6])
    b["at"] = [a["at"][0] + length, a["at"][1]]
    if rng.random() < 0.7:
        link["model"] = "floating-frame"
        link["elements"] = rng.choice([1, 2, 4])
    force = rng.choice([1.0, 1e-12, 1e3])
    loads = appendable(model, "loads")
    if loads is not None:
        loads.append({"id": TINY, "link": link["id"], "s": 1, "force": [0, -force]})


MUTATIONS = [mutate_number] * 5 + [mutate_elements, delete_key, duplicate_item, odd_string,
                                   same_place, wrong_type, add_noise, add_noise, add_drag,
                                   add_drag, floating_link, floating_link, add_link_load,
                                   tiny_link, tiny_link]


def frozen(model, energy):
    """None, or why an exit 0 of a model with tiny_link's load is wrong: a
    step after t = 0 accepted without a Newton iteration (nothing moved)."""
    if not any(isinstance(l, dict) and l.get("id") == TINY for l in items(model, "loads")):
        return None
    if not os.path.exists(energy):
        return None
    with open(energy, encoding="utf-8") as f:
        header = next(f, "").strip().split(",")
        if "newton_iters" not in header:
            return None
        col = header.index("newton_iters")
        for n, line in enumerate(f, 2):
            cells = line.strip().split(",")
            if n > 2 and col < len(cells) and cells[col] == "0":
                return f"exit 0 with a step of 0 Newton iterations under the tiny link's load (line {n})"
    return None


def damage_partial(rng, partial, work):
    """A copy of `partial` damaged the ways issue 31 found merged silently
    (bytes overwritten in the middle, truncated, joined to itself, an
    appended byte), or None when there is no partial yet."""
    if not os.path.exists(partial):
        return None
    with open(partial, "rb") as f:
        data = f.read()
    if len(data) < 200:
        return None
    how = rng.choice(["overwrite", "truncate", "double", "append", "flip"])
    if how == "overwrite":
        at = rng.randrange(120, len(data) - 8)
        bad = data[:at] + bytes(rng.randrange(256) for _ in range(8)) + data[at + 8:]
    elif how == "truncate":
        bad = data[: rng.randrange(0, len(data) - 1)]
    elif how == "double":
        bad = data + data
    elif how == "append":
        bad = data + b"\0"
    else:
        at = rng.randrange(len(data))
        bad = data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:]
    if bad == data:
        return None
    damaged = os.path.join(work, "mutant-damaged.bin")
    with open(damaged, "wb") as f:
        f.write(bad)
    return damaged


def other_command(rng, cli, model_path, work):
    """The command line of ensemble, ensemble-merge or modes on the mutant,
    with odd values among good ones (outputs inside `work`)."""
    stats = os.path.join(work, "mutant-stats.csv")
    partial = os.path.join(work, "mutant-part.bin")
    kind = rng.choice(["ensemble", "merge", "modes", "damaged"])
    odd = ["1", "2", "3", "0", "-1", "8", "1000000000", "4294967297", "x", ""]
    if kind == "ensemble":
        args = [cli, "ensemble", model_path, "--samples", rng.choice(odd[:3] + odd),
                "--threads", rng.choice(["1", "2", "0", "100000", "-3"]), "--stats", stats]
        if rng.random() < 0.5:
            k = rng.choice(["1/2", "2/2", "3/2", "0/1", "4294967297/4294967298", "1/0", "a/b"])
            args += ["--part", k, "--partial", partial]
        if rng.random() < 0.3:
            args += ["--keep", rng.choice(odd), "--paths", os.path.join(work, "mutant-paths.csv")]
    elif kind == "damaged":
        damaged = damage_partial(rng, partial, work)
        if damaged is None:
            return other_command(rng, cli, model_path, work)
        # must be refused (exit 2) naming the file: 0 is a damaged merge
        return [cli, "ensemble-merge", damaged, "--allow-incomplete", "--stats", stats]
    elif kind == "merge":
        args = [cli, "ensemble-merge", partial, partial if rng.random() < 0.2 else model_path,
                "--stats", stats]
        if rng.random() < 0.5:
            args.append("--allow-incomplete")
    else:
        args = [cli, "modes", model_path, "--count", rng.choice(["1", "2", "10", "0", "-1", "x"]),
                "--csv", os.path.join(work, "mutant-modes.csv")]
    return args + ["--max-memory", "64M"] if kind != "merge" else args


def books_kept(out, probes):
    """None, or why an exit 0 is not a success: a balance above
    BALANCE_LIMIT of the energy scale, or a probe outside the box."""
    m = SUMMARY_BALANCE.search(out)
    if m:
        try:
            if float(m.group(1)) > BALANCE_LIMIT:
                return f"exit 0 with max |balance| {m.group(1)} of the energy scale"
        except ValueError:
            pass
    if os.path.exists(probes):
        with open(probes, encoding="utf-8") as f:
            header = next(f, "").strip().split(",")
            # only the positions are held to the box: the other columns are
            # velocities, angles and stress resultants (N, V, M)
            position = [i for i, name in enumerate(header)
                        if i > 0 and (name.endswith(".x") or name.endswith(".y"))]
            for n, line in enumerate(f, 2):
                try:
                    cells = line.strip().split(",")
                    if any(abs(float(cells[i])) > BOX for i in position if i < len(cells)):
                        return f"exit 0 with a probe outside the +-1e6 m box (line {n})"
                except ValueError:
                    break
    return None


def short_span(rng, model):
    """--until a few steps after 0, or None (the model's own span)."""
    t = model.get("time")
    dt = t.get("dt") if isinstance(t, dict) else None
    if isinstance(dt, (int, float)) and not isinstance(dt, bool) and math.isfinite(dt) and dt > 0:
        return repr(dt * rng.randint(1, 8))
    return None


def finite_csv(path):
    if not os.path.exists(path):
        return "no energy CSV"
    with open(path, encoding="utf-8") as f:
        next(f, None)
        for n, line in enumerate(f, 2):
            for field in line.strip().split(","):
                try:
                    if not math.isfinite(float(field)):
                        return f"line {n}: non-finite {field}"
                except ValueError:
                    return f"line {n}: not a number {field!r}"
    return None


def judge(rc, out, err, energy):
    if rc < 0 or rc > 4:
        return f"exit {rc}"
    for word in ("runtime error:", "AddressSanitizer", "LeakSanitizer", "CRITICAL", "g_malloc"):
        if word in err:
            return f"stderr has {word!r}"
    if rc == 0:
        if re.search(r"\b(nan|inf)\b", out, re.I):
            return "exit 0 with a non-finite summary"
        return finite_csv(energy) if energy else None
    if rc == 2:
        lines = err.splitlines()
        if not any("invalid model:" in l for l in lines):
            return "exit 2 without 'invalid model:'"
        body = [l for l in lines if l.startswith("  ") and not l.startswith("    ")]
        bad = [l for l in body if not PATH_LINE.match(l)]
        # a message may run over lines when an id holds a newline: judge the first only
        if bad and not any(i in "".join(bad) for i in ("\n", "new")):
            return f"exit 2 with a line without a JSON path: {bad[0][:160]!r}"
    if rc == 3 and not err.strip():
        return "exit 3 without a message"
    return None


def main():
    cli, root, work = sys.argv[1:4]
    seconds = float(os.environ.get("FLEXION_FUZZ_SECONDS", sys.argv[4] if len(sys.argv) > 4 else 60))
    seed = int(os.environ.get("FLEXION_FUZZ_SEED", time.time_ns() % 2 ** 32))
    rng = random.Random(seed)
    os.makedirs(os.path.join(work, "artifacts-run"), exist_ok=True)
    seeds = []
    for path in sorted(glob.glob(os.path.join(root, "data", "examples", "*.flexion"))):
        with open(path, encoding="utf-8") as f:
            seeds.append(json.load(f))
    model_path = os.path.join(work, "mutant.flexion")
    energy = os.path.join(work, "mutant-energy.csv")
    probes = os.path.join(work, "mutant-probes.csv")
    env = dict(os.environ, LC_ALL="C.UTF-8",
               ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "detect_leaks=1"),
               UBSAN_OPTIONS=os.environ.get("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1"))
    print(f"# mutate-run: seed {seed} (FLEXION_FUZZ_SEED={seed} replays), {seconds:g} s")
    end = time.monotonic() + seconds
    tried = findings = 0
    kinds = ("run; drags, noise profiles, tiny links; ensemble, ensemble-merge, damaged "
             "partials, modes command lines")
    while time.monotonic() < end:
        model = copy.deepcopy(rng.choice(seeds))
        for _ in range(rng.randint(1, 3)):
            try:
                rng.choice(MUTATIONS)(rng, model)
            except (AttributeError, IndexError, KeyError, TypeError, ValueError):
                pass
        try:
            text = json.dumps(model, ensure_ascii=False, allow_nan=False)
        except ValueError:
            # a mutation overflowed to inf or NaN, which JSON cannot hold:
            # the loader fuzzer covers such text, this one wants a model
            continue
        with open(model_path, "w", encoding="utf-8") as f:
            f.write(text)
        args = [cli, "run", model_path, "--energy", energy, "--probes", probes, "--max-memory", "64M"]
        until = short_span(rng, model)
        if until:
            args += ["--until", until]
        other = rng.random() < 0.2
        if other:
            args = other_command(rng, cli, model_path, work)
        for old in (energy, probes):
            if os.path.exists(old):
                os.unlink(old)
        tried += 1
        try:
            started = time.monotonic()
            p = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT, env=env,
                               errors="replace")
            took = time.monotonic() - started
            if took > SLOW:
                print(f"# slow ({took:.0f} s, not a finding): {' '.join(args[1:])}")
            if other and "mutant-damaged.bin" in args:
                why = None if p.returncode == 2 and "mutant-damaged.bin" in p.stderr else \
                    f"a damaged partial gave exit {p.returncode}, not a refusal naming it"
            elif other:
                # exit 2 there is a refused model or partial: a message is enough
                why = judge(p.returncode, "", p.stderr, None) if p.returncode != 2 else \
                    judge(0 if p.stderr.strip() else 3, "", p.stderr, None)
            else:
                why = judge(p.returncode, p.stdout, p.stderr, energy)
                if why is None and p.returncode == 0:
                    why = books_kept(p.stdout, probes) or frozen(model, energy)
            if why is None and not other and tried % 4 == 0:
                c = subprocess.run([cli, "check", model_path, "--max-memory", "64M"],
                                   capture_output=True, text=True, timeout=TIMEOUT, env=env,
                                   errors="replace")
                if (p.returncode == 2) != (c.returncode == 2) and p.returncode in (0, 2, 3):
                    why = f"run exits {p.returncode} but check exits {c.returncode}"
        except subprocess.TimeoutExpired:
            p, why = None, f"no end within {TIMEOUT} s (a hang)"
        if why:
            findings += 1
            keep = os.path.join(work, "artifacts-run", f"finding-{seed}-{tried}.flexion")
            with open(keep, "w", encoding="utf-8") as f:
                f.write(text)
            print(f"not ok - {why}: {' '.join(args[1:])} (kept as {keep})")
            if p is not None:
                for line in (p.stderr or "").splitlines()[:20]:
                    print(f"#   {line}")
            if findings >= 5:
                break
    print(f"# mutate-run: {tried} models tried ({kinds}), {findings} findings, seed {seed}")
    with open(os.path.join(work, "stats.txt"), "a", encoding="utf-8") as f:
        f.write(f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} run {tried} inputs "
                f"{seconds:g} s findings {findings} seed {seed}\n")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())

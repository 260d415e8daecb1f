"""The examples in examples/python run as they are and say what they should;
the README's GJS one-liner works."""
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest


def example(source_root, name):
    return os.path.join(source_root, "examples", "python", name)


def run(args, cwd, env=None):
    p = subprocess.run([sys.executable] + args, cwd=cwd, capture_output=True, text=True,
                       timeout=600, stdin=subprocess.DEVNULL, env=env)
    return p.returncode, p.stdout, p.stderr


def is_png(path):
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_four_bar_sweep_and_its_slurm_array(source_root, tmp_path):
    status, out, err = run([example(source_root, "four-bar-sweep.py"), "sweep.png", "--end", "1"],
                           tmp_path)
    assert status == 0, err
    assert is_png(tmp_path / "sweep.png")
    table = out.splitlines()
    assert table[0] == "crank_m,rocker_swing_deg"
    direct = [line.split(",") for line in table[1:]]
    assert len(direct) == 7

    # the same sweep as a job array: one task per value, then the merge
    with open(example(source_root, "four-bar-sweep.sbatch")) as f:
        assert "#SBATCH --array=0-6\n" in f.read()
    results = tmp_path / "results"
    for task in range(7):
        env = dict(os.environ, SLURM_ARRAY_TASK_ID=str(task))
        if task == 3:  # the merge names a missing task
            status, _, err = run([example(source_root, "four-bar-sweep-merge.py"), str(results)],
                                 tmp_path)
            assert status == 2 and "tasks 3, 4, 5, 6 have no result" in err
        status, _, err = run([example(source_root, "four-bar-sweep-task.py"), str(results),
                              "--end", "1"], tmp_path, env)
        assert status == 0, err
    status, _, err = run([example(source_root, "four-bar-sweep-merge.py"), str(results)], tmp_path)
    assert status == 0, err
    assert is_png(results / "sweep.png")
    merged = (results / "sweep.csv").read_text().splitlines()[1:]
    assert [[f"{float(a):.3f}", f"{float(b):.3f}"] for a, b in
            (line.split(",") for line in merged)] == direct
    env = dict(os.environ, SLURM_ARRAY_TASK_ID="7")
    status, _, err = run([example(source_root, "four-bar-sweep-task.py"), str(results)],
                         tmp_path, env)
    assert status != 0 and "SLURM_ARRAY_TASK_ID must be 0 to 6" in err


def test_cantilever_frequencies_converge(source_root, tmp_path):
    status, out, err = run([example(source_root, "cantilever-frequencies.py"),
                            "--max-elements", "16"], tmp_path)
    assert status == 0, err
    rows = [line.split(",") for line in out.splitlines()[2:]]
    table = {(int(r[0]), int(r[1])): [float(v) for v in r[2:5]] for r in rows}
    assert sorted(table) == [(k, n) for k in (1, 2, 3) for n in (2, 4, 8, 16)]
    converged = table[(3, 16)]
    for k in (1, 2, 3):  # refining never moves the third frequency away
        d = [abs(table[(k, n)][2] - converged[2]) for n in (2, 4, 8, 16)]
        assert all(later <= earlier + 1e-9 for earlier, later in zip(d, d[1:])), (k, d)
    # per element, a higher degree is closer: the point of degree-k elements
    d4 = [abs(table[(k, 4)][1] - converged[1]) for k in (1, 2, 3)]
    assert d4[0] > d4[1] > d4[2]
    # a Timoshenko beam with rotary inertia, just below Euler-Bernoulli
    exact = [float(v) for v in out.splitlines()[1].split(",")[2:5]]
    assert all(-2e-3 < (c - e) / e < 0 for c, e in zip(converged, exact))


def damping_search(source_root, tmp_path, *args):
    status, out, err = run([example(source_root, "damping-search.py")] + list(args), tmp_path)
    assert status == 0, err
    last = out.splitlines()[-1]
    m = re.search(r"= ([0-9.e+-]+) (s|N s/m\^2), damping ratio zeta1 = ([0-9.]+)$", last)
    assert m, last
    found = float(m.group(1))
    rows = [line.split(",") for line in out.splitlines()[2:-1]]
    # every value tried lies on its side of the limit
    for row in rows:
        tried, swing = float(row[0]), float(row[2])
        assert (swing <= 1e-3) == (tried >= found) or abs(tried - found) < 1e-3 * found, row
    return float(m.group(3))


def test_damping_search(source_root, tmp_path):
    material = damping_search(source_root, tmp_path)
    viscous = damping_search(source_root, tmp_path, "--viscous")
    # the first mode rings on: either damping needs the same ratio for it
    assert 0.05 < material < 0.3
    assert abs(material - viscous) < 0.05 * viscous


def test_readme_gjs_line(source_root, tmp_path):
    gjs = shutil.which("gjs")
    if gjs is None:
        pytest.skip("gjs is not installed")
    with open(os.path.join(source_root, "README.md"), encoding="utf-8") as f:
        lines = [line.strip() for line in f if " gjs -c " in line]
    assert len(lines) == 1
    # the README's build folder is build/; this build's may be another
    lib = os.environ["GI_TYPELIB_PATH"].split(":")[0]
    line = lines[0].replace("=build/src/lib", "=" + shlex.quote(lib))
    p = subprocess.run(["bash", "-c", line], cwd=source_root, capture_output=True, text=True,
                       timeout=300, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    t, H, balance = (float(v) for v in p.stdout.split())
    assert abs(t - 1.0) < 1e-9 and H > 0 and abs(balance) < 1e-10 * H


def test_readme_python_lines(source_root):
    with open(os.path.join(source_root, "README.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("    tools/python -c '\n") + len("    tools/python -c '\n")
    end = text.index("'\n", start)
    script = "\n".join(line[4:] for line in text[start:end].splitlines())
    p = subprocess.run([sys.executable, "-c", script], cwd=source_root, capture_output=True,
                       text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    first, second, third = p.stdout.splitlines()
    t, H, worst = (float(v) for v in first.split())
    assert abs(t - 0.5) < 1e-9 and H > 0 and worst < 1e-10 * H
    assert len(second.strip("[]").split(",")) == 3
    # the settled Warren truss: AE in compression by the method of joints
    ae, r_a = (float(v) for v in third.split())
    assert abs(ae + 1828.26) < 2 and abs(r_a - 1583.33) < 0.01

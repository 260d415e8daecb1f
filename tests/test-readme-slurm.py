#!/usr/bin/env python3
"""tests/test-readme-slurm.py: the README's Slurm recipe as text (issue 25:
as written it did not run). Both scripts are shown in full and start with
#!/bin/bash (sbatch refuses a script without it), are valid bash, number the
array from 1 with --part k/K over the same K, give the model's path, say that
the binary must be on the compute nodes' PATH (or absolute) and that the parts
need a shared filesystem, and the merge is submitted with
--kill-on-invalid-dep=yes after the whole array.

With FLEXION_CLI, the scripts also run as sbatch would run them, on a
small study (K = 4 parts of 8 samples, the environment Slurm gives), and
the merge equals a single run byte for byte.

usage: test-readme-slurm.py SOURCE_ROOT [FLEXION_CLI]"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

root = sys.argv[1]
text = open(os.path.join(root, 'README.md'), encoding='utf-8').read()
n = 0
failures = 0


def check(cond, what, detail=''):
    global n, failures
    n += 1
    print(('ok %d - %s' if cond else 'not ok %d - %s') % (n, what))
    if not cond:
        failures += 1
        for line in str(detail).splitlines():
            print('# ' + line)


def block_after(marker):
    """The indented code block that follows the paragraph ending in marker."""
    i = text.find(marker)
    if i < 0:
        return None
    lines = text[i:].split('\n')[1:]
    while lines and not lines[0].strip():
        lines.pop(0)
    block = []
    for line in lines:
        if line.startswith('    ') or not line.strip():
            block.append(line[4:])
        else:
            break
    return '\n'.join(block).strip('\n') + '\n'


ensemble = block_after('`ensemble.sh`:')
merge = block_after('`merge.sh`:')
submit = block_after('instead of leaving it pending forever):')
check(ensemble is not None and merge is not None and submit is not None,
      'the README shows ensemble.sh, merge.sh and how to submit them')
if failures:
    print('1..%d' % n)
    sys.exit(1)

for name, script in (('ensemble.sh', ensemble), ('merge.sh', merge)):
    check(script.startswith('#!/bin/bash\n'), name + ' starts with #!/bin/bash', script[:80])
    bash = shutil.which('bash')
    if bash:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, name)
            open(path, 'w').write(script)
            r = subprocess.run([bash, '-n', path], capture_output=True, text=True)
            check(r.returncode == 0, name + ' is valid bash', r.stderr)
    check('set -euo pipefail' in script, name + ' stops at the first failure')
    check(re.search(r'FLEXION=\$\{FLEXION:-flexion-cli\}', script) is not None,
          name + ' runs flexion-cli from PATH or an absolute $FLEXION')

array = re.search(r'#SBATCH --array=(\d+)-(\d+)', ensemble)
part = re.search(r'--part "\$SLURM_ARRAY_TASK_ID/(\d+)"', ensemble)
check(array is not None and array.group(1) == '1', 'the array is numbered from 1')
check(array is not None and part is not None and array.group(2) == part.group(1),
      'the array covers parts 1..K of --part k/K', ensemble)
check(re.search(r'"\$STUDY/[^"]+\.flexion"', ensemble) is not None, 'ensemble.sh gives the model\'s path')
check('--partial "$STUDY/' in ensemble and '"$STUDY"/part-*.bin' in merge,
      'the parts are written and merged in the shared study folder')
check('--kill-on-invalid-dep=yes' in submit and '--dependency=afterok:' in submit,
      'the merge waits for the array and is cancelled if a task fails')
check('--parsable' in submit, 'the array\'s job id is taken with --parsable')
prose = text[text.find('A Slurm job array'):text.find('`ensemble.sh`:')]
check('PATH' in prose and 'absolute path' in prose, 'the README says the binary must be on the nodes\' PATH or absolute')
check('filesystem every node sees' in prose, 'the README says the parts need a shared filesystem')

cli = sys.argv[2] if len(sys.argv) > 2 else None
if cli and array and part:
    K = array.group(2)
    small_e = (ensemble.replace('--array=1-' + K, '--array=1-4').replace('/' + K + '"', '/4"')
               .replace('--samples 1000000', '--samples 8'))
    with tempfile.TemporaryDirectory() as study:
        model = re.search(r'"\$STUDY/([^"]+\.flexion)"', ensemble).group(1)
        src = open(os.path.join(root, 'data', 'examples', model)).read()
        import json
        m = json.loads(src)
        m['time']['end'] = 20 * m['time']['dt']
        json.dump(m, open(os.path.join(study, model), 'w'))
        open(os.path.join(study, 'ensemble.sh'), 'w').write(small_e)
        open(os.path.join(study, 'merge.sh'), 'w').write(merge)
        env = dict(os.environ, FLEXION=os.path.abspath(cli), SLURM_SUBMIT_DIR=study,
                   SLURM_CPUS_PER_TASK='1')
        env.pop('STUDY', None)
        ok = True
        for k in range(1, 5):
            env['SLURM_ARRAY_TASK_ID'] = str(k)
            r = subprocess.run(['bash', 'ensemble.sh'], cwd=study, env=env, capture_output=True, text=True)
            ok = ok and r.returncode == 0
        check(ok, 'ensemble.sh runs as array tasks 1..4', r.stderr)
        r = subprocess.run(['bash', 'merge.sh'], cwd=study, env=env, capture_output=True, text=True)
        check(r.returncode == 0, 'merge.sh merges them', r.stderr)
        one = os.path.join(study, 'one.csv')
        subprocess.run([cli, 'ensemble', os.path.join(study, model), '--samples', '8', '--seed', '1',
                        '--stats', one], capture_output=True)
        same = os.path.exists(one) and os.path.exists(os.path.join(study, 'stats.csv')) and \
            open(one, 'rb').read() == open(os.path.join(study, 'stats.csv'), 'rb').read()
        check(same, 'the merged statistics are the single run\'s bytes')
        os.remove(os.path.join(study, 'part-3.bin'))
        r = subprocess.run(['bash', 'merge.sh'], cwd=study, env=env, capture_output=True, text=True)
        check(r.returncode == 2 and '3/4' in r.stderr, 'merge.sh fails (exit 2) naming a missing part',
              r.stderr)

print('1..%d' % n)
sys.exit(1 if failures else 0)

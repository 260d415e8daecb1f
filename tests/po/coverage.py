#!/usr/bin/env python3
"""tests/po: each po/LINGUAS translation covers at least MIN% of the messages
extracted now from po/POTFILES.in (strings may change ahead of translations,
so 100% is not required). Lists every missing or fuzzy msgid.

usage: coverage.py SOURCE_ROOT WORK_DIR [MIN_PERCENT]"""
import os
import re
import shutil
import subprocess
import sys

root, work = sys.argv[1], sys.argv[2]
minimum = float(sys.argv[3]) if len(sys.argv) > 3 else 95.0

ESCAPES = {'n': '\n', 't': '\t', 'r': '\r', '"': '"', '\\': '\\', 'a': '\a', 'b': '\b',
           'f': '\f', 'v': '\v'}


def unquote(s):
    s = s.strip()
    if len(s) < 2 or s[0] != '"' or s[-1] != '"':
        raise ValueError('not a PO string: %r' % s)
    return re.sub(r'\\(.)', lambda m: ESCAPES.get(m.group(1), m.group(1)), s[1:-1])


def parse(path):
    """[(msgctxt or None, msgid, [msgstr...], fuzzy)], obsolete entries skipped"""
    entries = []
    cur = None
    key = None

    def flush():
        nonlocal cur
        if cur and 'msgid' in cur:
            strs = [v for k, v in sorted(cur.items()) if k.startswith('msgstr')]
            entries.append((cur.get('msgctxt'), cur['msgid'], strs, cur.get('fuzzy', False)))
        cur = None

    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if not line:
                flush()
                continue
            if cur is None:
                cur = {}
            if line.startswith('#~'):
                cur['obsolete'] = True
                continue
            if line.startswith('#,'):
                if 'fuzzy' in line:
                    cur['fuzzy'] = True
                continue
            if line.startswith('#'):
                continue
            if cur.get('obsolete'):
                continue
            m = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(".*")$', line)
            if m:
                key = m.group(1)
                if key == 'msgid' and 'msgid' in cur:
                    raise ValueError('%s: entry without blank line before %r' % (path, line))
                cur[key] = unquote(m.group(2))
            elif line.startswith('"') and key:
                cur[key] += unquote(line)
            else:
                raise ValueError('%s: cannot parse %r' % (path, line))
    flush()
    return [e for e in entries if e[1] != '']


def main():
    if os.path.isdir(work):
        shutil.rmtree(work)
    os.makedirs(work)
    pot = os.path.join(work, 'flexion.pot')
    subprocess.run(['sh', os.path.join(root, 'po', 'update.sh'), '--pot', pot], check=True)
    wanted = [(ctxt, msgid) for ctxt, msgid, _, _ in parse(pot)]
    with open(os.path.join(root, 'po', 'LINGUAS'), encoding='utf-8') as f:
        langs = [w for line in f if not line.startswith('#') for w in line.split()]
    failed = False
    for lang in langs:
        done = {}
        for ctxt, msgid, strs, fuzzy in parse(os.path.join(root, 'po', lang + '.po')):
            done[(ctxt, msgid)] = bool(strs) and all(strs) and not fuzzy
        missing = [k for k in wanted if k not in done]
        fuzzy = [k for k in wanted if k in done and not done[k]]
        n_ok = len(wanted) - len(missing) - len(fuzzy)
        percent = 100.0 * n_ok / len(wanted) if wanted else 100.0
        ok = percent >= minimum
        failed |= not ok
        print('%s.po: %d of %d messages translated (%.1f%%, at least %g%% needed): %s'
              % (lang, n_ok, len(wanted), percent, minimum, 'ok' if ok else 'FAIL'))
        for what, keys in (('not in %s.po' % lang, missing),
                           ('untranslated or fuzzy in %s.po' % lang, fuzzy)):
            for ctxt, msgid in keys:
                print('  %s: %s%r' % (what, '[%s] ' % ctxt if ctxt else '', msgid))
    shutil.rmtree(work)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

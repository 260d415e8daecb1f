#!/usr/bin/env python3
"""tests/po: every source file with translatable strings is listed in
po/POTFILES.in, and every entry listed there exists.

usage: potfiles.py SOURCE_ROOT"""
import os
import re
import sys

root = sys.argv[1]
C_RE = re.compile(r'\b_\(\s*"|\bN_\(\s*"|\bC_\(\s*"|\bNC_\(\s*"|\bg_dngettext\b|\bg_dpgettext2\b')
UI_RE = re.compile(r'translatable\s*=\s*"(yes|true|1)"')
DATA_SUFFIXES = ('.desktop.in', '.metainfo.xml.in', '.appdata.xml.in', '.gschema.xml')


def has_strings(rel):
    path = os.path.join(root, rel)
    if rel.startswith('data' + os.sep) or rel.startswith('data/'):
        return rel.endswith(DATA_SUFFIXES)
    if rel.endswith(('.c', '.h')):
        with open(path, encoding='utf-8', errors='replace') as f:
            return C_RE.search(f.read()) is not None
    if rel.endswith('.ui'):
        with open(path, encoding='utf-8', errors='replace') as f:
            return UI_RE.search(f.read()) is not None
    return False


def potfiles():
    listed = []
    with open(os.path.join(root, 'po', 'POTFILES.in'), encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if line and not line.startswith('#'):
                listed.append((n, line))
    return listed


def main():
    found = set()
    for top in ('src', 'ui', 'data'):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for name in sorted(filenames):
                rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, '/')
                if has_strings(rel):
                    found.add(rel)
    listed = potfiles()
    names = [name for _, name in listed]
    errors = []
    for rel in sorted(found - set(names)):
        errors.append('%s has translatable strings but is not in po/POTFILES.in' % rel)
    for n, name in listed:
        if not os.path.isfile(os.path.join(root, name)):
            errors.append('po/POTFILES.in:%d: %s does not exist' % (n, name))
        elif name not in found:
            print('note: po/POTFILES.in:%d: %s has no translatable strings' % (n, name))
    for name in sorted(set(n for n in names if names.count(n) > 1)):
        errors.append('po/POTFILES.in lists %s more than once' % name)
    for e in errors:
        print(e)
    print('%d files with translatable strings, %d listed' % (len(found), len(listed)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""tests/install (suite flatpak): flatpak/io.github.flexion.Flexion.json is a
valid manifest for the app, and every dependency() of the top-level
meson.build is provided by the GNOME runtime or built as a module.

usage: check-flatpak.py SOURCE_ROOT"""
import json
import os
import re
import sys

APP_ID = 'io.github.flexion.Flexion'
# pkg-config names that org.gnome.Platform//44 (GNOME SDK) provides
RUNTIME = {'glib-2.0', 'gio-2.0', 'gobject-2.0', 'cairo', 'gtk4', 'libadwaita-1',
           'json-glib-1.0'}

root = sys.argv[1]
manifest_path = os.path.join(root, 'flatpak', APP_ID + '.json')
errors = []
n = 0


def check(cond, what):
    global n
    n += 1
    print('%s %d - %s' % ('ok' if cond else 'not ok', n, what))
    if not cond:
        errors.append(what)
    return cond


try:
    with open(manifest_path, encoding='utf-8') as f:
        manifest = json.load(f)
    check(True, 'manifest is valid JSON')
except (OSError, ValueError) as e:
    check(False, 'manifest is valid JSON: %s' % e)
    print('1..%d' % n)
    sys.exit(1)

check(manifest.get('app-id', manifest.get('id')) == APP_ID, 'app-id is ' + APP_ID)
check(manifest.get('command') == 'flexion', 'command is flexion')
check(manifest.get('runtime') == 'org.gnome.Platform', 'runtime is org.gnome.Platform')
check(manifest.get('sdk') == 'org.gnome.Sdk', 'sdk is org.gnome.Sdk')
check(str(manifest.get('runtime-version')) == '44', 'runtime-version is 44')
finish = manifest.get('finish-args', [])
for arg in ('--share=ipc', '--socket=fallback-x11', '--socket=wayland', '--device=dri'):
    check(arg in finish, 'finish-args has ' + arg)


def modules(mods):
    for m in mods:
        if isinstance(m, str):
            check(False, 'module %s is inline (external module files are not checked)' % m)
            continue
        yield m
        yield from modules(m.get('modules', []))


mods = list(modules(manifest.get('modules', [])))
names = [m.get('name') for m in mods]
check(len(mods) > 0 and names[-1] == 'flexion', 'the last module is flexion')

for m in mods:
    for s in m.get('sources', []):
        kind = s.get('type')
        if kind in ('archive', 'file'):
            check(s.get('url', '').startswith('https://'),
                  '%s: %s source is fetched over https' % (m.get('name'), kind))
            check(re.fullmatch(r'[0-9a-f]{64}', s.get('sha256', '')) is not None,
                  '%s: %s source has a sha256 of 64 hex digits' % (m.get('name'), kind))
        elif kind == 'dir':
            path = os.path.normpath(os.path.join(os.path.dirname(manifest_path), s.get('path', '')))
            check(os.path.isfile(os.path.join(path, 'meson.build')),
                  '%s: dir source %s is the source tree' % (m.get('name'), s.get('path')))
        elif kind == 'git':
            check('commit' in s or 'tag' in s, '%s: git source is pinned' % m.get('name'))
flexion = mods[-1] if mods else {}
check(flexion.get('buildsystem') == 'meson', 'flexion builds with meson')

with open(os.path.join(root, 'meson.build'), encoding='utf-8') as f:
    meson = f.read()
deps = sorted(set(re.findall(r"\bdependency\(\s*'([^']+)'", meson)))
check(len(deps) > 0, 'meson.build has dependency() calls: %s' % ', '.join(deps))
built = set(n for n in names if n)
# dependency() names that a module of another name provides
PROVIDED_BY = {'KLU': 'klu'}
for dep in deps:
    base = re.sub(r'-[0-9.]+$', '', dep)
    check(dep in RUNTIME or dep in built or base in built or PROVIDED_BY.get(dep) in built,
          '%s is in the GNOME runtime or built as a module' % dep)

print('1..%d' % n)
sys.exit(1 if errors else 0)

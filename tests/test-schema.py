#!/usr/bin/env python3
"""tests (suite format): data/flexion.schema.json describes the .flexion format.

  1. the schema is a valid JSON Schema (draft 2020-12);
  2. every data/examples/*.flexion is valid against it;
  3. the tests/broken files whose fault is one a schema can express are
     refused (each listed below with its reason), and every other broken file
     is listed with the reason a schema cannot see it, so that a new broken
     file has to be sorted into one list or the other;
  4. small edits of a valid model, each valid or not: the schema's verdict
     equals the reader's (`flexion-cli check`, exit 0 or 2) in CASES, and is
     as stated in PENDING_CASES: the keys marked "new" in the schema and the
     reader's range limits, which other branches bring to the reader (move a
     case to CASES once the reader has it).

usage: test-schema.py SOURCE_ROOT [FLEXION_CLI]
Exit 0 when every check passes, 1 otherwise, 77 (skipped) without
python3-jsonschema."""
import copy
import glob
import json
import os
import subprocess
import sys
import tempfile

try:
    from jsonschema import Draft202012Validator
except ImportError:
    print('python3-jsonschema (with draft 2020-12) is not installed: skipped')
    sys.exit(77)

root = sys.argv[1]
cli = sys.argv[2] if len(sys.argv) > 2 else None
failures = []
count = 0


def check(cond, what, detail=''):
    global count
    count += 1
    print('%s %d - %s' % ('ok' if cond else 'not ok', count, what))
    if not cond:
        failures.append(what)
        if detail:
            print('  # ' + detail.replace('\n', '\n  # '))
    return cond


def refuse_constant(name):
    # JSON has no NaN or Infinity; Python's json module would accept them.
    raise ValueError('not JSON: %s' % name)


def load_json(path):
    with open(path, encoding='utf-8') as f:
        return json.load(f, parse_constant=refuse_constant)


schema = load_json(os.path.join(root, 'data', 'flexion.schema.json'))
try:
    Draft202012Validator.check_schema(schema)
    check(True, 'the schema is valid draft 2020-12')
except Exception as e:  # jsonschema.SchemaError
    check(False, 'the schema is valid draft 2020-12', str(e))
    print('1..%d' % count)
    sys.exit(1)
validator = Draft202012Validator(schema)


def errors_of(document):
    return sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))


def describe(errors):
    return '\n'.join('%s: %s' % ('.'.join(str(p) for p in e.absolute_path) or '(root)',
                                 e.message[:200]) for e in errors[:5])


# 2. The examples
examples = sorted(glob.glob(os.path.join(root, 'data', 'examples', '*.flexion')))
check(len(examples) > 0, 'data/examples has examples')
for path in examples:
    errors = errors_of(load_json(path))
    check(not errors, 'example %s is valid' % os.path.basename(path), describe(errors))

# 3. tests/broken: refused by the schema, with the rule that refuses it
REFUSED = {
    '04-top-level-array': 'the root is an object',
    '05-wrong-format': 'format is "flexion-model"',
    '06-version-2': 'version is 1',
    '07-missing-joint-id': 'a joint needs an id',
    '09-wrong-type-at': 'at is a pair of numbers',
    '10-negative-stiffness': 'EA > 0',
    '11-zero-elements': 'elements >= 1',
    '12-huge-elements': 'elements <= 1,000,000',
    '13-float-elements': 'elements is an integer',
    '19-nan-string': 'mass is a number, not a string',
    '20-overflow-1e999': 'numbers are finite (1e999 overflows a double)',
    '21-s-out-of-range': 's is in [0, 1]',
    '24-load-joint-and-link': 'a load has a joint or a link, not both',
    '25-material-frame-no-frame-link': 'a material-frame joint load needs frame_link',
    '26-mixed-section-forms': 'a section is canonical or material, not both',
    '27-missing-section': 'a link needs a section',
    '28-missing-format': 'format is required',
    '32-null-root': 'the root is an object',
    '35-unknown-support': 'support is one of none, pin, clamp, guided',
    '36-zero-dt': 'dt > 0',
    '38-tolerance-too-large': 'tolerance < 0.1',
    '42-sine-zero-frequency': 'a sine frequency > 0',
    '43-table-one-point': 'a table has at least 2 points',
    '44-missing-version': 'version is required',
    '46-missing-stiffness': 'a link that is not rigid needs EI',
    '47-unknown-shape': 'shape type is one of rectangle, square, circle, tube',
    '48-load-without-target': 'a load needs a joint or a link',
    '49-negative-mass': 'mass >= 0',
    '50-joints-not-array': 'joints is an array',
    '51-wrong-type-rigid': 'rigid is a boolean',
    '52-poisson-out-of-range': 'nu <= 0.5',
    '53-empty-section': 'a section needs one of its two forms',
    '55-max-iterations-zero': 'max_iterations >= 1',
    '56-slider-zero-mass': 'a slider mass > 0',
    '57-slider-zero-direction': 'a slider direction is not [0, 0]',
    '58-slider-on-pin-support': 'a slider joint has support none',
    '59-slider-and-mass': 'a slider joint has no mass of its own',
    '60-motion-on-free-joint': 'only a pin or clamp support is driven',
    '61-motion-on-guided-joint': 'only a pin or clamp support is driven',
    '66-motor-bad-type': 'a motor type is torque or speed',
    '69-spring-negative-stiffness': 'stiffness >= 0',
    '70-spring-both-zero': 'a spring has stiffness or damping > 0',
    '72-link-damping-negative': 'damping rotation >= 0',
    '74-motor-missing-value': 'a motor needs a value',
    '76-slider-direction-nan-string': 'direction holds numbers',
    '77-spring-damping-1e999': 'numbers are finite (1e999 overflows a double)',
    '78-motor-against-null': 'against is a string',
    '79-far-joint': 'coordinates within 1e6 m',
    '81-tiny-rhoA': 'rhoA is 0 or at least 1e-30',
    '82-huge-width': 'section sizes at most 1e6 m',
    '90-huge-moment': 'load moments within ±1e12 N m',
    '91-huge-force': 'load forces within ±1e12 N',
    '92-huge-white-noise': 'white noise sigma at most 1e6',
    '93-huge-ou-noise': 'OU std at most 1e6',
    '94-huge-gravity': 'gravity within ±1e4 m/s²',
    '95-huge-initial-velocity': 'initial velocities within ±1e5 m/s, ±1e6 rad/s',
    '96-drag-anchor-far': 'drag anchors within ±1e6 m',
}
# Beyond a schema: the JSON text itself, references between lists, unique
# ids, comparisons between two values, sums over the model.
BEYOND = {
    '01-bad-json': 'not JSON',
    '02-truncated': 'not JSON',
    '03-empty': 'not JSON',
    '08-duplicate-joint-id': 'unique ids',
    '14-dangling-link-joint': 'a reference to a joint',
    '15-dangling-load-joint': 'a reference to a joint',
    '16-dangling-probe-link': 'a reference to a link',
    '17-from-equals-to': 'two values compared',
    '18-zero-length': 'the positions of two joints',
    '22-hat-t2-before-t1': 'two values compared',
    '23-table-not-increasing': 'two values compared',
    '29-too-many-elements-total': 'a sum over the links',
    '30-deep-nesting': 'the JSON text (nesting depth)',
    '31-binary-garbage': 'not JSON',
    '33-dangling-load-link': 'a reference to a link',
    '34-duplicate-probe-id': 'unique ids',
    '37-too-many-steps': 'two values compared (end / dt)',
    '39-huge-integer-literal': 'the JSON text (integer literal)',
    '40-frame-link-not-at-joint': 'a reference to a link',
    '41-ramp-t1-not-after-t0': 'two values compared',
    '45-tube-inner-too-large': 'two values compared',
    '54-leading-zero-number': 'the JSON text (leading zero)',
    '62-motor-at-weld': 'a reference to a joint',
    '63-motor-link-not-at-joint': 'a reference to a link',
    '64-motor-against-itself': 'two values compared',
    '65-motor-ground-unsupported': 'a reference to a joint',
    '67-motor-duplicate-id': 'unique ids',
    '68-motor-dangling-against': 'a reference to a link',
    '71-spring-against-not-at-joint': 'a reference to a link',
    '73-motion-profile-t2-before-t1': 'two values compared',
    '75-spring-ground-clamp': 'a reference to a joint',
    '80-subnormal-length': 'the positions of two joints',
    '83-hexadecimal': 'not JSON',
    '84-comment': 'not JSON',
    '85-single-quotes': 'not JSON',
}
broken = sorted(os.path.basename(p)[:-len('.flexion')]
                for p in glob.glob(os.path.join(root, 'tests', 'broken', '*.flexion')))
check(len(broken) > 0, 'tests/broken has files')
unsorted = [b for b in broken if b not in REFUSED and b not in BEYOND]
check(not unsorted, 'every tests/broken file is listed as refused or beyond the schema',
      'not listed: ' + ', '.join(unsorted))
# Listed names without a file (coming from another branch, or renamed) are
# only reported: the files present are what is checked.
absent = [b for b in list(REFUSED) + list(BEYOND) if b not in broken]
if absent:
    print('# listed but absent from tests/broken: ' + ', '.join(absent))
for name in broken:
    if name not in REFUSED:
        continue
    try:
        document = load_json(os.path.join(root, 'tests', 'broken', name + '.flexion'))
    except ValueError as e:
        check(False, 'broken %s parses as JSON' % name, str(e))
        continue
    check(errors_of(document), 'broken %s is refused: %s' % (name, REFUSED[name]))

# 4. Edits of one valid model: the schema and the reader agree.
BASE = {
    'format': 'flexion-model', 'version': 1,
    'time': {'dt': 0.01, 'end': 0.02},
    'joints': [
        {'id': 'O', 'at': [0, 0], 'support': 'pin'},
        {'id': 'A', 'at': [1, 0]},
        {'id': 'B', 'at': [2, 0]},
    ],
    'links': [
        {'id': 'crank', 'from': 'O', 'to': 'A', 'elements': 2,
         'section': {'rhoA': 1, 'rhoI': 0.01, 'EA': 1e5, 'GA': 1e5, 'EI': 100}},
        {'id': 'rod', 'from': 'A', 'to': 'B', 'elements': 2,
         'section': {'E': 2.1e11, 'nu': 0.3, 'rho': 7850,
                     'shape': {'type': 'square', 'side': 0.01}}},
    ],
    'loads': [{'link': 'rod', 's': 0.5, 'force': [0, -1],
               'profile': {'type': 'hat', 't1': 0.01, 't2': 0.02}}],
    'motors': [{'id': 'm', 'joint': 'O', 'link': 'crank', 'type': 'torque', 'value': 1}],
    'springs': [{'id': 'k', 'joint': 'O', 'link': 'crank', 'stiffness': 1}],
    'probes': [{'id': 'p', 'link': 'rod', 's': 1}],
}


def at(doc, path):
    for key in path:
        doc = doc[key]
    return doc


def set_(path, value):
    def edit(doc):
        at(doc, path[:-1])[path[-1]] = value
    return edit


def drop(path):
    def edit(doc):
        del at(doc, path[:-1])[path[-1]]
    return edit


def both(*edits):
    def edit(doc):
        for e in edits:
            e(doc)
    return edit


RIGID_NO_STIFFNESS = both(set_(['links', 0, 'rigid'], True),
                          set_(['links', 0, 'section'], {'rhoA': 1, 'rhoI': 0.01}))
# An inertia at A keeps the causality consistent when B carries a slider or a body.
MASS_A = set_(['joints', 1, 'mass'], 0.01)
SLIDER_B = both(MASS_A, set_(['joints', 2, 'slider'], {'direction': [1, 0], 'mass': 1}))

# (what, edit, valid): for keys the reader knows, the reader must agree.
DRAG = {'link': 'rod', 's': 1, 'path': [[0, 2, 0], [0.02, 2, 0.01]]}
CASES = [
    ('the base model', lambda d: None, True),
    ('unknown keys are warnings', both(set_(['joints', 1, 'suport'], 'pin'),
                                       set_(['extra'], {'a': 1})), True),
    ('version 1.0 is version 1', set_(['version'], 1.0), True),
    ('version 0', set_(['version'], 0), False),
    ('version "1"', set_(['version'], '1'), False),
    ('elements 2e0 is an integer', set_(['links', 0, 'elements'], 2e0), True),
    ('name null', set_(['name'], None), False),
    ('gravity of three numbers', set_(['gravity'], [0, -9.81, 0]), False),
    ('a rigid link needs no stiffness', RIGID_NO_STIFFNESS, True),
    ('a rigid link with EI 0', both(RIGID_NO_STIFFNESS, set_(['links', 0, 'section', 'EI'], 0)),
     True),
    ('a rigid link with EI < 0', both(RIGID_NO_STIFFNESS,
                                      set_(['links', 0, 'section', 'EI'], -1)), False),
    ('a rigid material section without E and nu',
     both(set_(['links', 1, 'rigid'], True), drop(['links', 1, 'section', 'E']),
          drop(['links', 1, 'section', 'nu'])), True),
    ('a material section without nu', drop(['links', 1, 'section', 'nu']), False),
    ('a canonical section without rhoI', drop(['links', 0, 'section', 'rhoI']), False),
    ('nu = -1', set_(['links', 1, 'section', 'nu'], -1), False),
    ('a tube', set_(['links', 1, 'section', 'shape'],
                    {'type': 'tube', 'diameter': 0.02, 'inner_diameter': 0}), True),
    ('a tube without inner_diameter', set_(['links', 1, 'section', 'shape'],
                                           {'type': 'tube', 'diameter': 0.02}), False),
    ('a shape without type', set_(['links', 1, 'section', 'shape'], {'side': 0.01}), False),
    ('formulation "pinned"', set_(['links', 0, 'formulation'], 'pinned'), True),
    ('formulation "hinged"', set_(['links', 0, 'formulation'], 'hinged'), False),
    ('link damping', set_(['links', 1, 'damping'], {'velocity': 0.1, 'rotation': 0}), True),
    ('a floating-frame link', set_(['links', 0, 'model'], 'floating-frame'), True),
    ('an unknown link model', set_(['links', 1, 'model'], 'floating'), False),
    ('an unknown frame', set_(['links', 1, 'frame'], 'body'), False),
    ('floating-frame ends', both(set_(['links', 1, 'model'], 'floating-frame'),
                                 set_(['links', 1, 'ends'], {'from': 'FF', 'to': 'FF'})), True),
    ('an end with a wrong letter', set_(['links', 1, 'ends'], {'from': 'VX'}), False),
    ('an end of three letters', set_(['links', 1, 'ends'], {'to': 'FFF'}), False),
    ('Kelvin-Voigt damping below 0', both(set_(['links', 1, 'model'], 'floating-frame'),
                                          set_(['links', 1, 'damping'], {'kelvin_voigt': -1})), False),
    ('initial omega as a string', set_(['links', 1, 'initial'], {'omega': '1'}), False),
    ('a joint load ignores s and frame_link',
     set_(['loads', 0], {'joint': 'B', 's': 'x', 'frame_link': 5, 'force': [0, -1]}), True),
    ('a link load without s', drop(['loads', 0, 's']), False),
    ('frame "global"', set_(['loads', 0, 'frame'], 'global'), False),
    ('a follower joint load with frame_link',
     set_(['loads', 0], {'joint': 'B', 'frame': 'material', 'frame_link': 'rod',
                         'force': [0, 1]}), True),
    ('a profile ignores keys of other types',
     set_(['loads', 0, 'profile'], {'type': 'sine', 'frequency': 5, 't1': 'x'}), True),
    ('a profile without type', set_(['loads', 0, 'profile'], {'t1': 0.1}), False),
    ('a ramp without t0 needs t1 > 0', set_(['loads', 0, 'profile'],
                                            {'type': 'ramp', 't1': 0}), False),
    ('a ramp with t0 < t1', set_(['loads', 0, 'profile'],
                                 {'type': 'ramp', 't0': -1, 't1': -0.5}), True),
    ('a table', set_(['loads', 0, 'profile'],
                     {'type': 'table', 'points': [[0, 0], [1, 1]]}), True),
    ('a table point of three numbers', set_(['loads', 0, 'profile'],
                                            {'type': 'table', 'points': [[0, 0], [1, 1, 2]]}),
     False),
    ('a motor without type', drop(['motors', 0, 'type']), False),
    ('a motor with a profile', set_(['motors', 0, 'profile'], {'type': 'step-off', 't1': 0.01}),
     True),
    ('a damper without stiffness', set_(['springs', 0], {'id': 'k', 'joint': 'O',
                                                         'link': 'crank', 'damping': 0.1}), True),
    ('a spring without stiffness or damping', drop(['springs', 0, 'stiffness']), False),
    ('a probe without id', drop(['probes', 0, 'id']), False),
    ('an empty id', set_(['probes', 0, 'id'], ''), False),
    ('a slider', SLIDER_B, True),
    ('a slider with support "none"', both(SLIDER_B, set_(['joints', 2, 'support'], 'none')),
     True),
    ('a slider without mass', set_(['joints', 2, 'slider'], {'direction': [1, 0]}), False),
    ('a driven pin', set_(['joints', 0, 'motion'], {'velocity': [0, 0.1]}), True),
    ('a driven guided joint', both(set_(['joints', 0, 'support'], 'guided'),
                                   set_(['joints', 0, 'motion'], {'velocity': [0, 0.1]})), False),
    ('a driven joint without support', set_(['joints', 1, 'motion'], {'velocity': [0, 1]}),
     False),
    ('a body', both(MASS_A, set_(['bodies'], [{'id': 'plate', 'joints': ['B'], 'mass': 1,
                                               'center': [2.1, 0]}])), True),
    ('a body with no joints', set_(['bodies'], [{'id': 'plate', 'joints': [], 'mass': 1}]),
     False),
    ('a body listing a joint twice', set_(['bodies'], [{'id': 'plate', 'joints': ['B', 'B'],
                                                        'mass': 1, 'center': [2.1, 0]}]),
     False),
    ('a body with mass 0', set_(['bodies'], [{'id': 'plate', 'joints': ['B'], 'mass': 0,
                                              'center': [2.1, 0]}]), False),
    ('max_iterations 1e3', set_(['solver'], {'max_iterations': 1e3}), True),
    ('max_iterations 1001', set_(['solver'], {'max_iterations': 1001}), False),
    ('tolerance 0', set_(['solver'], {'tolerance': 0}), False),
    ('gravity of -1e4 m/s²', set_(['gravity'], [0, -1e4]), True),
    ('gravity of -1.1e4 m/s²', set_(['gravity'], [0, -1.1e4]), False),
    ('an initial omega of 1e6 rad/s', set_(['links', 0, 'initial'], {'omega': 1e6}), True),
    ('an initial omega of 2e6 rad/s', set_(['links', 0, 'initial'], {'omega': 2e6}), False),
    ('an initial speed of 2e5 m/s', set_(['links', 0, 'initial'], {'velocity': [0, 2e5]}), False),
    ('a drag at a link point', set_(['drags'], [DRAG]), True),
    ('a drag at a joint with its spring', set_(['drags'], [
        {'id': 'hand', 'joint': 'B', 'path': [[0, 2, 0], [1, 2, 1]], 'frequency': 3,
         'damping_ratio': 0.5}]), True),
    ('a drag at a joint and a link', set_(['drags'], [dict(DRAG, joint='B')]), False),
    ('a drag at a link without s', set_(['drags'], [{'link': 'rod', 'path': DRAG['path']}]),
     False),
    ('a drag without a path', set_(['drags'], [{'joint': 'B'}]), False),
    ('a drag path of one point', set_(['drags'], [dict(DRAG, path=[[0, 2, 0]])]), True),
    ('a drag that lets go', set_(['drags'], [dict(DRAG, release=0.5)]), True),
    ('a drag path point [t, x]', set_(['drags'], [dict(DRAG, path=[[0, 2], [1, 2]])]), False),
    ('a drag frequency 0', set_(['drags'], [dict(DRAG, frequency=0)]), False),
    # noise profiles and the seed (fx-noise.h)
    ('a seed', set_(['seed'], 7), True),
    ('a negative seed', set_(['seed'], -1), False),
    ('a seed of 1.5', set_(['seed'], 1.5), False),
    ('white noise', set_(['loads', 0, 'profile'], {'type': 'white', 'sigma': 0.5}), True),
    ('white noise without sigma', set_(['loads', 0, 'profile'], {'type': 'white'}), False),
    ('white noise with sigma < 0', set_(['loads', 0, 'profile'],
                                        {'type': 'white', 'sigma': -1}), False),
    ('OU noise times a ramp', set_(['loads', 0, 'profile'], {
        'type': 'ou', 'std': 1, 'tau': 0.1, 'times': {'type': 'ramp', 't1': 1}}), True),
    ('two noises on one stream', both(
        set_(['loads', 0, 'profile'], {'type': 'white', 'sigma': 1, 'stream': 'ground'}),
        set_(['motors', 0, 'profile'], {'type': 'white', 'sigma': 1, 'stream': 'ground'})), True),
    ('a stream that is not a string', set_(['loads', 0, 'profile'],
                                           {'type': 'white', 'sigma': 1, 'stream': 3}), False),
    ('a seed of 2^32', set_(['seed'], 2 ** 32), False),
    ('OU noise with tau 0', set_(['loads', 0, 'profile'],
                                 {'type': 'ou', 'std': 1, 'tau': 0}), False),
    ('OU noise without std', set_(['loads', 0, 'profile'], {'type': 'ou', 'tau': 1}), False),
    ('noise times noise', set_(['loads', 0, 'profile'], {
        'type': 'white', 'sigma': 1, 'times': {'type': 'white', 'sigma': 1}}), False),
    ('OU noise on a speed motor', set_(['motors', 0, 'profile'],
                                       {'type': 'ou', 'std': 0.1, 'tau': 0.5}), True),
]

# The schema's verdict only, until the reader has these keys and limits.
PENDING_CASES = [
    ('a joint at x = 1e6', set_(['joints', 2, 'at'], [1e6, 0]), True),
    ('a joint at x = 1.1e6', set_(['joints', 2, 'at'], [1.1e6, 0]), False),
    ('EA = 1e30', set_(['links', 0, 'section', 'EA'], 1e30), True),
    ('EA = 2e30', set_(['links', 0, 'section', 'EA'], 2e30), False),
    ('rhoI = 1e-31', set_(['links', 0, 'section', 'rhoI'], 1e-31), False),
    ('a joint mass of 1e-40', set_(['joints', 2, 'mass'], 1e-40), False),
    ('a square side of 1e-10 m', set_(['links', 1, 'section', 'shape', 'side'], 1e-10), False),
    ('a body centre beyond 1e6 m', both(MASS_A, set_(['bodies'], [
        {'id': 'plate', 'joints': ['B'], 'mass': 1, 'center': [2.1, -2e6]}])), False),
]


def reader_accepts(document):
    """True or False from `flexion-cli check`, or None when it gave neither
    of the answers expected (its output then goes into the message)."""
    with tempfile.NamedTemporaryFile('w', suffix='.flexion', delete=False) as f:
        json.dump(document, f)
        path = f.name
    try:
        run = subprocess.run([cli, 'check', path], capture_output=True, text=True, timeout=60)
    finally:
        os.unlink(path)
    if run.returncode in (0, 2):
        return run.returncode == 0, run.stdout + run.stderr
    return None, 'exit %d\n%s%s' % (run.returncode, run.stdout, run.stderr)


for what, edit, valid in CASES + PENDING_CASES:
    document = copy.deepcopy(BASE)
    edit(document)
    errors = errors_of(document)
    verdict = 'valid' if valid else 'refused'
    check(bool(errors) != valid, 'schema: %s is %s' % (what, verdict),
          describe(errors) if errors else 'the schema accepts it')
    if cli and (what, edit, valid) in CASES:
        accepts, output = reader_accepts(document)
        check(accepts == valid, 'reader: %s is %s' % (what, verdict), output)

print('1..%d' % count)
if failures:
    print('# %d of %d failed' % (len(failures), count))
sys.exit(1 if failures else 0)

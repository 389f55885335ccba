"""paddle's tensor names (issue 22 §3): a tensor made from data is named at once
(``generated_tensor_N``), an op's result only when its name is first read (``eager_tmp_N``);
messages show them as paddle does, and an unnamed leaf as ``Leaf Var ()``.

The numbers come from paddle's process-wide counters, so each case runs in a fresh
interpreter of each framework and compares the messages whole."""
import json
import subprocess
import sys

import pytest

pytest.importorskip("paddle")

CASES = {
    "seed_shape": """
y = paddle.ones([2, 3]); y.stop_gradient = False
z = y * 2
try:
    z.backward(paddle.ones([3, 2]))
except AssertionError as e:
    out.append(str(e))
out.append(y.name)
""",
    "leaf_var_unnamed": """
x = paddle.ones([2]); x.stop_gradient = False
for f in (lambda: x.add_(x), lambda: x.__setitem__(0, 1.0)):
    try:
        f()
    except ValueError as e:
        out.append(str(e).split(" that")[0])
out.append(x.name)
try:
    x.add_(x)
except ValueError as e:
    out.append(str(e).split(" that")[0])
""",
    "leaf_var_from_data": """
x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
try:
    x.add_(x)
except ValueError as e:
    out.append(str(e).split(" that")[0])
out += [x.name, paddle.to_tensor(x).name]
""",
    "names_set_and_read": """
a = paddle.to_tensor([1.0]); a.name = "mine"
out += [a.name, paddle.nn.Linear(2, 2).weight.name, (a * 2).name]
""",
}


def _run(module: str, body: str) -> list:
    src = (f"import warnings; warnings.simplefilter('ignore')\nimport json\n"
           f"import {module} as paddle\nout = []\n{body}\nprint(json.dumps(out))")
    done = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("case", sorted(CASES))
def test_tensor_names_as_paddle(case):
    real = _run("paddle", CASES[case])
    assert real, "the case printed nothing"
    assert _run("paddlelike", CASES[case]) == real

# RUN: %PYTHON %s %examples/chain_mlp_train_step.mlir | FileCheck %s
# Tests the budget forms memsched.optimize accepts (ints, floats that are
# whole numbers of bytes, sizes with binary or decimal units with or without
# a space, exponents, fractions, min) and that bare fractions, unknown units
# and other types raise ValueError before any pass runs, naming what is
# accepted. The example's planned bytes before memsched are 162132 B.

import sys

import memsched

with open(sys.argv[1]) as handle:
    text = handle.read()

for budget in [1 << 30, "1GiB", "1 GiB", " 1 gib ", "1GB", "1 GB", "1e9",
               1e9, "300 MiB", "300mb", "1073741824B", ".5 GiB", "0.9x",
               "0.9 x", "min"]:
    module, report = memsched.optimize(text, budget=budget)
    fit = report["functions"][0]["fit"]
    print("%r budget %d met %s" % (budget, fit["budget_bytes"],
                                   fit["planned_after_bytes"] <=
                                   fit["budget_bytes"]))
# CHECK: 1073741824 budget 1073741824 met True
# CHECK-NEXT: '1GiB' budget 1073741824 met True
# CHECK-NEXT: '1 GiB' budget 1073741824 met True
# CHECK-NEXT: ' 1 gib ' budget 1073741824 met True
# CHECK-NEXT: '1GB' budget 1000000000 met True
# CHECK-NEXT: '1 GB' budget 1000000000 met True
# CHECK-NEXT: '1e9' budget 1000000000 met True
# CHECK-NEXT: 1000000000.0 budget 1000000000 met True
# CHECK-NEXT: '300 MiB' budget 314572800 met True
# CHECK-NEXT: '300mb' budget 300000000 met True
# CHECK-NEXT: '1073741824B' budget 1073741824 met True
# CHECK-NEXT: '.5 GiB' budget 536870912 met True
# 0.9 * 162132 = 145918.8
# CHECK-NEXT: '0.9x' budget 145918 met True
# CHECK-NEXT: '0.9 x' budget 145918 met True
# CHECK-NEXT: 'min' budget {{[0-9]+}} met True

for budget in [0.8, "0.8", "0.5", 2.5, "300 parsecs", "12 GiB/s", "", "x",
               "-1GiB", -1, True, [1], float("inf")]:
    try:
        memsched.optimize(text, budget=budget)
        print("%r no error" % (budget,))
    except ValueError as error:
        print("%r ValueError: %s" % (budget, error))
# CHECK-NEXT: 0.8 ValueError: budget 0.8 is not a whole number of bytes; write '0.8x' for a fraction of the planned bytes
# CHECK-NEXT: '0.8' ValueError: budget '0.8' is not a whole number of bytes; write '0.8x'
# CHECK-NEXT: '0.5' ValueError: {{.*}}write '0.5x'
# CHECK-NEXT: 2.5 ValueError: {{.*}}write '2.5x'
# CHECK-NEXT: '300 parsecs' ValueError: unknown budget unit 'parsecs' in '300 parsecs'; accepted: bytes {{.*}} or 'min'
# CHECK-NEXT: '12 GiB/s' ValueError: '12 GiB/s' is not a budget; accepted:
# CHECK-NEXT: '' ValueError: '' is not a budget; accepted:
# CHECK-NEXT: 'x' ValueError: 'x' is not a budget; accepted:
# CHECK-NEXT: '-1GiB' ValueError: '-1GiB' is not a budget; accepted:
# CHECK-NEXT: -1 ValueError: budget -1 is negative; accepted:
# CHECK-NEXT: True ValueError: budget True is not a budget; accepted:
# CHECK-NEXT: [1] ValueError: budget [1] (a list) is not a budget; accepted:
# CHECK-NEXT: inf ValueError: budget inf is not a budget; accepted:

# The normalised option value has no spaces, so it stands in a pipeline.
# CHECK-NEXT: normalized 12GiB 12GB 0.5x min None
print("normalized", memsched.budgets.normalize("12 GiB"),
      memsched.budgets.normalize("12 GB"), memsched.budgets.normalize(" 0.5x"),
      memsched.budgets.normalize("MIN"), memsched.budgets.normalize(None))

//===- MemschedInterfaces.td - memsched op interfaces ------*- tablegen -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the op interfaces through which memsched's cost model
// asks ops for their work and memory traffic.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDINTERFACES_TD
#define MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDINTERFACES_TD

include "mlir/IR/OpBase.td"

def Memsched_CostOpInterface : OpInterface<"CostOpInterface"> {
  let cppNamespace = "::mlir::memsched";
  let description = [{
    The work an op does, for the roofline time model of memsched's cost model:
    floating-point (or integer) operations, bytes read and written in device
    memory, and the scratch memory the op needs while it runs. Upstream ops get
    this interface through external models (see
    `registerCostOpInterfaceExternalModels`); ops without it are costed
    conservatively by the cost model, which also emits a remark.
  }];

  let methods = [
    InterfaceMethod<
      /*desc=*/[{Returns the number of arithmetic operations the op performs.}],
      /*retTy=*/"int64_t",
      /*methodName=*/"getFlops",
      /*args=*/(ins)>,
    InterfaceMethod<
      /*desc=*/[{Returns the number of bytes the op reads plus the number of
                 bytes it writes.}],
      /*retTy=*/"int64_t",
      /*methodName=*/"getBytesMoved",
      /*args=*/(ins)>,
    InterfaceMethod<
      /*desc=*/[{Returns the bytes of scratch memory the op needs while it
                 runs, in addition to its operands and results.}],
      /*retTy=*/"int64_t",
      /*methodName=*/"getWorkspaceBytes",
      /*args=*/(ins),
      /*methodBody=*/"",
      /*defaultImplementation=*/"return 0;">,
  ];
}

#endif // MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDINTERFACES_TD

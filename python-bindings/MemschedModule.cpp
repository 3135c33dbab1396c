//===- MemschedModule.cpp - The memsched._memsched Python module -*- C++
//-*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// One native module over the string-level facade. It is the only translation
// unit built with exceptions: MLIR runs exception-free, and errors become
// Python exceptions only after MLIR has returned.
//
//===----------------------------------------------------------------------===//

#include "memsched/API/Compiler.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir::memsched;

/// Raised for every MLIR failure; carries the collected diagnostics.
static PyObject *mlirErrorType = nullptr;

/// Returns the output of a call, or raises MLIRError with its diagnostics.
static std::string unwrap(const api::CallResult &result) {
  if (!result.succeeded) {
    std::string message = result.diagnostics.empty()
                              ? std::string("memsched call failed")
                              : result.diagnostics;
    PyErr_SetString(mlirErrorType, message.c_str());
    throw py::error_already_set();
  }
  return result.output;
}

/// Runs a facade call with the GIL released: MLIR work never touches Python
/// objects, and other Python threads keep running meanwhile.
template <typename Call>
static api::CallResult callWithoutGil(Call call) {
  py::gil_scoped_release release;
  return call();
}

PYBIND11_MODULE(_memsched, m) {
  m.doc() = "Native core of memsched: analyses and pass pipelines";
  static py::exception<std::runtime_error> mlirError(m, "MLIRError",
                                                     PyExc_RuntimeError);
  mlirErrorType = mlirError.ptr();

  m.def(
      "analyze",
      [](const std::string &text, const std::string &device, bool timeline) {
        return unwrap(callWithoutGil(
            [&] { return api::analyze(text, device, timeline); }));
      },
      py::arg("text"), py::arg("device") = "h100", py::arg("timeline") = true,
      "Returns the JSON report (a string) of every function in the module.");

  m.def(
      "run_pipeline",
      [](const std::string &text, const std::string &pipeline) {
        return unwrap(
            callWithoutGil([&] { return api::runPipeline(text, pipeline); }));
      },
      py::arg("text"), py::arg("pipeline"),
      "Runs a textual pass pipeline on the module and returns the result.");

  m.def(
      "sweep",
      [](const std::string &text, const std::vector<std::string> &budgets,
         const std::string &device, bool allowRemat, bool allowSwap) {
        return unwrap(callWithoutGil([&] {
          return api::sweep(text, budgets, device, allowRemat, allowSwap);
        }));
      },
      py::arg("text"), py::arg("budgets"), py::arg("device") = "",
      py::arg("allow_remat") = true, py::arg("allow_swap") = true,
      "Returns the JSON memory-vs-time curve (a string) of every function.");

  m.def(
      "run_pipeline_with_diagnostics",
      [](const std::string &text, const std::string &pipeline) {
        api::CallResult result =
            callWithoutGil([&] { return api::runPipeline(text, pipeline); });
        return py::make_tuple(unwrap(result), result.diagnostics);
      },
      py::arg("text"), py::arg("pipeline"),
      "Like run_pipeline, also returning remarks and warnings as text.");
}

/*===- consumer.c - memsched through its C API ---------------------*- C
-*-===*\
|*                                                                            *|
|* Part of the memsched project.                                              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "memsched-c/Memsched.h"

#include <stdio.h>
#include <stdlib.h>

static void printPiece(MlirStringRef piece, void *userData) {
  (void)userData;
  fwrite(piece.data, 1, piece.length, stdout);
}

static char *readFile(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = malloc((size_t)size + 1);
  if (text && fread(text, 1, (size_t)size, file) != (size_t)size) {
    free(text);
    text = NULL;
  }
  if (text)
    text[size] = '\0';
  fclose(file);
  return text;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: consumer-c FILE.mlir\n");
    return 2;
  }
  char *text = readFile(argv[1]);
  if (!text) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  memschedRegisterAllDialects(registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(text));
  int status = 1;
  if (!mlirModuleIsNull(module)) {
    MlirLogicalResult result = memschedAnalyzeModule(
        module, mlirStringRefCreateFromCString("a100-80gb"), printPiece, NULL);
    printf("\nstatus %s\n", mlirLogicalResultIsSuccess(result) ? "ok" : "fail");
    status = mlirLogicalResultIsSuccess(result) ? 0 : 1;
    mlirModuleDestroy(module);
  }
  mlirContextDestroy(context);
  free(text);
  return status;
}

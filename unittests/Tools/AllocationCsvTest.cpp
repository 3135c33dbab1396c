//===- AllocationCsvTest.cpp - Tests for the allocation CSV reader --------===//
//
// This file tests the reader of MiniMalloc's CSV format that
// memsched-plan-offsets and the offset benchmark share.
//
//===----------------------------------------------------------------------===//

#include "AllocationCsv.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace mlir::memsched::scheduling;

namespace {

using Requests = std::vector<AllocationRequest>;

std::optional<Requests> readCsv(const std::string &text,
                                std::string *error = nullptr) {
  std::istringstream stream(text);
  return readAllocationCsv(stream, error);
}

TEST(AllocationCsvTest, ReadsMiniMallocFormat) {
  std::optional<Requests> requests =
      readCsv("id,lower,upper,size\n0,0,3,100\n1,2,5,50\n\n2,4,5,0\n");
  ASSERT_TRUE(requests);
  ASSERT_EQ(requests->size(), 3u);
  // upper is exclusive: [0, 3) is steps 0 to 2.
  EXPECT_EQ((*requests)[0].id, 0);
  EXPECT_EQ((*requests)[0].start, 0);
  EXPECT_EQ((*requests)[0].end, 2);
  EXPECT_EQ((*requests)[0].sizeBytes, 100);
  EXPECT_EQ((*requests)[1].start, 2);
  EXPECT_EQ((*requests)[1].end, 4);
  EXPECT_EQ((*requests)[2].sizeBytes, 0);
  // Buffers 0 and 1 meet at step 2.
  EXPECT_EQ(computeMaxLiveBytes(*requests), 150);
}

TEST(AllocationCsvTest, HeaderIsOptionalAndNamesColumns) {
  std::optional<Requests> bare = readCsv("5,10,12,7\r\n6,11,13,8\r\n");
  ASSERT_TRUE(bare);
  ASSERT_EQ(bare->size(), 2u);
  EXPECT_EQ((*bare)[0].id, 5);
  EXPECT_EQ((*bare)[1].end, 12);
  // Columns in another order, plus an extra one (as written by
  // memsched-plan-offsets), with spaces.
  std::optional<Requests> reordered =
      readCsv("size, upper, lower, id, offset\n64, 9, 4, 3, 128\n");
  ASSERT_TRUE(reordered);
  ASSERT_EQ(reordered->size(), 1u);
  EXPECT_EQ((*reordered)[0].id, 3);
  EXPECT_EQ((*reordered)[0].start, 4);
  EXPECT_EQ((*reordered)[0].end, 8);
  EXPECT_EQ((*reordered)[0].sizeBytes, 64);
  std::optional<Requests> none = readCsv("id,lower,upper,size\n");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

TEST(AllocationCsvTest, MalformedLinesAreNamed) {
  std::string error;
  EXPECT_FALSE(readCsv("id,lower,upper,size\n0,0,3,100\n1,2,x,5\n", &error));
  EXPECT_NE(error.find("line 3"), std::string::npos) << error;
  EXPECT_NE(error.find("'x'"), std::string::npos) << error;
  EXPECT_FALSE(readCsv("id,lower,upper,size\n0,0,3\n", &error));
  EXPECT_NE(error.find("line 2"), std::string::npos) << error;
  EXPECT_NE(error.find("got 3"), std::string::npos) << error;
  EXPECT_FALSE(readCsv("0,4,4,10\n", &error));
  EXPECT_NE(error.find("line 1"), std::string::npos) << error;
  EXPECT_NE(error.find("must be greater than lower"), std::string::npos)
      << error;
  EXPECT_FALSE(readCsv("0,0,4,-10\n", &error));
  EXPECT_NE(error.find("negative size"), std::string::npos) << error;
  EXPECT_FALSE(readCsv("name,begin,end,bytes\n0,0,4,10\n", &error));
  EXPECT_NE(error.find("line 1"), std::string::npos) << error;
  EXPECT_NE(error.find("id, lower, upper and size"), std::string::npos)
      << error;
  EXPECT_FALSE(readCsv("0,0,4,99999999999999999999\n", &error));
  EXPECT_NE(error.find("not an integer"), std::string::npos) << error;
}

TEST(AllocationCsvTest, PlansWhatItReads) {
  std::optional<Requests> requests = readCsv("id,lower,upper,size\n"
                                             "0,0,2,4\n"
                                             "1,3,5,4\n"
                                             "2,1,4,3\n");
  ASSERT_TRUE(requests);
  OffsetPlanOptions options;
  options.alignment = 1;
  std::optional<OffsetPlan> result = planOffsets(*requests, options);
  ASSERT_TRUE(result);
  std::string why;
  EXPECT_TRUE(verifyOffsets(*requests, result->offsets, 1, &why)) << why;
  EXPECT_EQ(result->arenaBytes, 7);
  EXPECT_TRUE(result->isOptimal);
}

} // namespace

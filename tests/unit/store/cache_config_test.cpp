// port-check.json's "cache" section (docs/configuration.md, docs/shared-cache.md): values and TOOL004.
#include <gtest/gtest.h>

#include "workspace/config.h"

namespace portcheck {
namespace {

TEST(CacheConfig, ParsesRemoteTimeoutAndLocalBound) {
  ConfigLoad l = parseConfig(
      R"({"cache": {"remote": "redis://127.0.0.1:6379/1", "timeout_ms": 500, "max_local_bytes": 1000000}})", "c.json");
  EXPECT_TRUE(l.problems.empty());
  EXPECT_EQ(l.config.cache.remote, "redis://127.0.0.1:6379/1");
  EXPECT_EQ(l.config.cache.timeout_ms, 500);
  EXPECT_EQ(l.config.cache.max_local_bytes, 1000000u);
  ConfigLoad d = parseConfig("{}", "c.json");
  EXPECT_FALSE(d.config.cache.remote);
  EXPECT_EQ(d.config.cache.timeout_ms, 2000);
  EXPECT_EQ(d.config.cache.max_local_bytes, 0u);
  ConfigLoad off = parseConfig(R"({"cache": {"remote": ""}})", "c.json");
  EXPECT_TRUE(off.problems.empty());
  EXPECT_EQ(off.config.cache.remote, "");
}

TEST(CacheConfig, BadValuesAreTool004Errors) {
  struct Case {
    const char* text;
    const char* says;
  } cases[] = {
      {R"({"cache": "redis://h:1"})", "cache must be an object"},
      {R"({"cache": {"remote": 6379}})", "cache.remote must be a string"},
      {R"({"cache": {"remote": "memcached://h:11211"}})", "neither redis://"},
      {R"({"cache": {"remote": "redis://h:99999"}})", "port must be a number"},
      {R"({"cache": {"timeout_ms": 0}})", "cache.timeout_ms must be"},
      {R"({"cache": {"timeout_ms": "2s"}})", "cache.timeout_ms must be"},
      {R"({"cache": {"timeout_ms": 60001}})", "cache.timeout_ms must be"},
      {R"({"cache": {"max_local_bytes": -1}})", "cache.max_local_bytes must be"},
      {R"({"cache": {"max_local_bytes": 1.5}})", "cache.max_local_bytes must be"},
  };
  for (const Case& c : cases) {
    ConfigLoad l = parseConfig(c.text, "port-check.json");
    ASSERT_EQ(l.problems.size(), 1u) << c.text;
    EXPECT_EQ(l.problems[0].rule, "TOOL004");
    EXPECT_EQ(l.problems[0].severity, Severity::Error) << c.text;
    EXPECT_NE(l.problems[0].message.find(c.says), std::string::npos) << l.problems[0].message;
  }
  EXPECT_FALSE(parseConfig(R"({"cache": {"remote": "ftp://h:1/"}})", "c.json").config.cache.remote);
}

TEST(CacheConfig, UnknownKeysAreWarnings) {
  ConfigLoad l = parseConfig(R"({"cache": {"ttl": 5}})", "port-check.json");
  ASSERT_EQ(l.problems.size(), 1u);
  EXPECT_EQ(l.problems[0].severity, Severity::Warning);
  EXPECT_NE(l.problems[0].message.find("'ttl'"), std::string::npos);
}

}  // namespace
}  // namespace portcheck

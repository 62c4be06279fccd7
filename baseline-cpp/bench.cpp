// structio's C++ baseline: Glaze's throughput on the seven benchmark documents, measured the
// same way as structio's `roundtrip` bench (reused destination value and output buffers,
// best of N repetitions of loops of at least --seconds each).
//
//   bench generate DIR        write NAME.json, NAME.pretty.json, NAME.beve for the seven documents
//   bench run DIR [SECONDS] [REPS]
//                             time Glaze on the files in DIR; prints "doc<TAB>op<TAB>MB/s" lines
//   bench serve DIR           answer timing requests on stdin, one line each:
//                             "DOC OP BATCH SAMPLES" -> the best of SAMPLES timings of BATCH
//                             calls, in nanoseconds per call ("error" when the operation
//                             fails or is unknown); structio's `mbps` bench drives it to
//                             alternate the two sides every few milliseconds (paired mode)
//
// Only Glaze's public API is used. Build instructions: README.md beside this file.
#include <glaze/glaze.hpp>

#include <chrono>
#include <cstdlib>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

struct test_struct {
   std::vector<std::string> testStrings{};
   std::vector<uint64_t> testUints{};
   std::vector<double> testDoubles{};
   std::vector<int64_t> testInts{};
   std::vector<bool> testBools{};
};

template <class T>
struct az {
   T a{}, b{}, c{}, d{}, e{}, f{}, g{}, h{}, i{}, j{}, k{}, l{}, m{}, n{}, o{}, p{}, q{}, r{}, s{}, t{}, u{},
      v{}, w{}, x{}, y{}, z{};
   template <class F>
   void each(F&& fn)
   {
      for (T* field : {&a, &b, &c, &d, &e, &f, &g, &h, &i, &j, &k, &l, &m, &n, &o, &p, &q, &r, &s, &t, &u, &v, &w,
                       &x, &y, &z})
         fn(*field);
   }
};

using mixed_doc = az<std::vector<test_struct>>;
template <class T>
using flat_doc = az<std::vector<T>>;

namespace gen
{
   std::mt19937_64 rng{20261129};

   std::string text()
   {
      static const std::vector<std::string> pieces = {"a", "b", "c", "x", "y", "z", "0", "7", " ", "-", "_",
                                                      "\"", "\\", "\n", "\t", "\r", "\b", "\f", "/", "\xC3\xA9",
                                                      "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xE6\x97\xA5"};
      std::uniform_int_distribution<size_t> len(32, 64), pick(0, pieces.size() - 1);
      std::string s;
      const size_t target = len(rng);
      while (s.size() < target) s += pieces[pick(rng)];
      return s;
   }
   uint64_t uint() { return rng() >> std::uniform_int_distribution<int>(0, 63)(rng); }
   int64_t sint() { return int64_t(uint()) * (rng() & 1 ? -1 : 1); }
   double dbl()
   {
      std::uniform_real_distribution<double> e(std::log(DBL_MIN), std::log(DBL_MAX));
      return std::exp(e(rng)) * (rng() & 1 ? -1.0 : 1.0);
   }
   double decimal()
   {
      static const double fr[] = {0.0, 0.5, 0.25, 0.75, 0.125, 0.375, 0.625, 0.875};
      double v = double(rng() % 1000) + fr[rng() % 8];
      return rng() % 4 == 0 ? -v : v;
   }
   bool boolean() { return rng() & 1; }

   template <class T, class F>
   flat_doc<T> flat(size_t per_field, F&& make)
   {
      flat_doc<T> d;
      d.each([&](std::vector<T>& v) {
         for (size_t i = 0; i < per_field; ++i) v.push_back(make());
      });
      return d;
   }

   mixed_doc mixed()
   {
      mixed_doc d;
      size_t field = 0;
      d.each([&](std::vector<test_struct>& v) {
         const size_t n = 4 + (field++ % 8 == 0 ? 1 : 0);
         for (size_t i = 0; i < n; ++i) {
            test_struct t;
            for (int k = 0; k < 13; ++k) {
               t.testStrings.push_back(text());
               t.testUints.push_back(uint());
               t.testDoubles.push_back(dbl());
               t.testInts.push_back(sint());
               t.testBools.push_back(boolean());
            }
            v.push_back(std::move(t));
         }
      });
      return d;
   }
}

static std::string slurp(const std::filesystem::path& p)
{
   std::ifstream f(p, std::ios::binary);
   return std::string(std::istreambuf_iterator<char>(f), {});
}

static void spill(const std::filesystem::path& p, const std::string& s)
{
   std::ofstream f(p, std::ios::binary);
   f.write(s.data(), std::streamsize(s.size()));
}

template <class T>
static int emit(const std::filesystem::path& dir, const char* name, const T& doc)
{
   std::string json, pretty, beve;
   if (glz::write_json(doc, json) || glz::write_beve(doc, beve)) return 1;
   glz::prettify_json(json, pretty);
   spill(dir / (std::string(name) + ".json"), json);
   spill(dir / (std::string(name) + ".pretty.json"), pretty);
   spill(dir / (std::string(name) + ".beve"), beve);
   return 0;
}

static double seconds_per_rep = 0.5;
static int reps = 5;

// Runs `op` in loops of at least `seconds_per_rep`, `reps` times; returns the best MB/s.
template <class F>
static double best_mbps(size_t bytes, F&& op)
{
   using clock = std::chrono::steady_clock;
   double best = 0;
   for (int r = 0; r < reps; ++r) {
      size_t iters = 0;
      const auto start = clock::now();
      double elapsed = 0;
      do {
         op();
         ++iters;
         elapsed = std::chrono::duration<double>(clock::now() - start).count();
      } while (elapsed < seconds_per_rep);
      best = std::max(best, double(bytes) * double(iters) / elapsed / 1e6);
   }
   return best;
}

// The six operations, in the order they are reported.
static constexpr const char* op_names[] = {"json_read", "json_write", "prettify", "minify", "beve_read", "beve_write"};

// One document's files and the reused value and output buffer every operation works on.
struct doc_base
{
   virtual ~doc_base() = default;
   // Runs operation `op` (an index into op_names) `n` times; false when one call failed.
   virtual bool call(int op, size_t n) = 0;
   // The bytes one call of `op` is credited with (as structio's benches count them).
   virtual size_t bytes(int op) const = 0;
};

template <class T>
struct doc final : doc_base
{
   std::string json, pretty, beve, out;
   T value{};

   template <int Op>
   bool one()
   {
      if constexpr (Op == 0) return !glz::read_json(value, json);
      if constexpr (Op == 1) return !glz::write_json(value, out);
      if constexpr (Op == 2) return glz::prettify_json(json, out), true;
      if constexpr (Op == 3) return glz::minify_json(pretty, out), true;
      if constexpr (Op == 4) return !glz::read_beve(value, beve);
      if constexpr (Op == 5) return !glz::write_beve(value, out);
   }

   template <int Op>
   bool many(size_t n)
   {
      bool ok = true;
      for (size_t i = 0; i < n; ++i) ok &= one<Op>();
      return ok;
   }

   bool call(int op, size_t n) override
   {
      switch (op) {
      case 0: return many<0>(n);
      case 1: return many<1>(n);
      case 2: return many<2>(n);
      case 3: return many<3>(n);
      case 4: return many<4>(n);
      case 5: return many<5>(n);
      }
      return false;
   }

   size_t bytes(int op) const override
   {
      return op == 3 ? pretty.size() : op >= 4 ? beve.size() : json.size();
   }
};

// Loads document `name` from `dir` and reads its JSON into the value (nullptr on failure).
template <class T>
static std::unique_ptr<doc_base> load(const std::filesystem::path& dir, const std::string& name)
{
   auto d = std::make_unique<doc<T>>();
   d->json = slurp(dir / (name + ".json"));
   d->pretty = slurp(dir / (name + ".pretty.json"));
   d->beve = slurp(dir / (name + ".beve"));
   if (d->json.empty() || d->beve.empty()) {
      std::fprintf(stderr, "missing files for %s in %s\n", name.c_str(), dir.c_str());
      return nullptr;
   }
   if (auto ec = glz::read_json(d->value, d->json)) {
      std::fprintf(stderr, "%s: read_json failed: %s\n", name.c_str(), glz::format_error(ec, d->json).c_str());
      return nullptr;
   }
   return d;
}

static std::unique_ptr<doc_base> load_named(const std::filesystem::path& dir, const std::string& name)
{
   if (name == "mixed") return load<mixed_doc>(dir, name);
   if (name == "strings") return load<flat_doc<std::string>>(dir, name);
   if (name == "uints") return load<flat_doc<uint64_t>>(dir, name);
   if (name == "ints") return load<flat_doc<int64_t>>(dir, name);
   if (name == "doubles" || name == "exact_decimals") return load<flat_doc<double>>(dir, name);
   if (name == "bools") return load<flat_doc<bool>>(dir, name);
   std::fprintf(stderr, "unknown document %s\n", name.c_str());
   return nullptr;
}

static int time_doc(const std::filesystem::path& dir, const char* name)
{
   auto d = load_named(dir, name);
   if (!d) return 1;
   bool ok = true;
   // GLAZE_BENCH_CASE=op times only that operation (for quick side-by-side checks).
   const char* only = std::getenv("GLAZE_BENCH_CASE");
   for (int op = 0; op < 6; ++op) {
      if (only && std::string_view(only) != op_names[op]) continue;
      std::printf("%s\t%s\t%.0f\n", name, op_names[op], best_mbps(d->bytes(op), [&] { ok &= d->call(op, 1); }));
   }
   std::fflush(stdout);
   return ok ? 0 : 1;
}

// Paired mode: answers "DOC OP BATCH SAMPLES" lines until stdin closes.
static int serve(const std::filesystem::path& dir)
{
   using clock = std::chrono::steady_clock;
   std::map<std::string, std::unique_ptr<doc_base>> docs;
   std::string name, op_name;
   size_t batch = 0, samples = 0;
   while (std::cin >> name >> op_name >> batch >> samples) {
      auto& d = docs[name];
      if (!d) d = load_named(dir, name);
      int op = -1;
      for (int k = 0; k < 6; ++k)
         if (op_name == op_names[k]) op = k;
      double best = 1e300;
      bool ok = d && op >= 0 && batch > 0;
      for (size_t s = 0; ok && s < samples; ++s) {
         const auto start = clock::now();
         ok = d->call(op, batch);
         best = std::min(best, std::chrono::duration<double, std::nano>(clock::now() - start).count() / double(batch));
      }
      if (ok) std::cout << best << std::endl;
      else std::cout << "error" << std::endl;
   }
   return 0;
}

int main(int argc, char** argv)
{
   if (argc < 3) {
      std::fprintf(stderr, "usage: %s generate DIR | run DIR [SECONDS] [REPS] [DOC...] | serve DIR\n", argv[0]);
      return 2;
   }
   const std::string mode = argv[1];
   const std::filesystem::path dir = argv[2];
   if (mode == "generate") {
      std::filesystem::create_directories(dir);
      int rc = emit(dir, "mixed", gen::mixed());
      rc |= emit(dir, "strings", gen::flat<std::string>(96, gen::text));
      rc |= emit(dir, "uints", gen::flat<uint64_t>(60, gen::uint));
      rc |= emit(dir, "ints", gen::flat<int64_t>(60, gen::sint));
      rc |= emit(dir, "doubles", gen::flat<double>(110, gen::dbl));
      rc |= emit(dir, "exact_decimals", gen::flat<double>(170, gen::decimal));
      rc |= emit(dir, "bools", gen::flat<bool>(180, gen::boolean));
      return rc;
   }
   if (mode == "run") {
      if (argc > 3) seconds_per_rep = std::stod(argv[3]);
      if (argc > 4) reps = std::stoi(argv[4]);
      // Documents named after REPS are the only ones timed.
      auto wanted = [&](const char* name) {
         if (argc <= 5) return true;
         for (int i = 5; i < argc; ++i)
            if (std::string_view(argv[i]) == name) return true;
         return false;
      };
      int rc = 0;
      for (const char* name : {"mixed", "strings", "uints", "ints", "doubles", "exact_decimals", "bools"})
         if (wanted(name)) rc |= time_doc(dir, name);
      return rc;
   }
   if (mode == "serve") return serve(dir);
   std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
   return 2;
}

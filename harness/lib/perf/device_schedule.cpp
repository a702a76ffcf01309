#include "perf/device_schedule.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>

namespace portcheck::perf {

namespace {

// The dispatch order of the run: site by site, except that sites dispatched alike under one loop of
// the orchestration (same loop, same count) take turns, one task each per trip, as the loop runs them.
std::vector<std::pair<int, std::int64_t>> dispatchOrder(const cost::ScheduleCost& cost) {
  std::vector<std::pair<int, std::int64_t>> order;
  const auto& sites = cost.kernels;
  for (std::size_t s = 0; s < sites.size();) {
    std::size_t end = s + 1;
    while (sites[s].enclosing_loop >= 0 && end < sites.size() && sites[end].graph == sites[s].graph &&
           sites[end].enclosing_loop == sites[s].enclosing_loop && sites[end].dispatches == sites[s].dispatches)
      ++end;
    const std::int64_t n = sites[s].dispatches.value_or(0);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::size_t k = s; k < end; ++k) order.emplace_back(static_cast<int>(k), i);
    s = end;
  }
  return order;
}

enum class Wait { None, Submit, Core, Producer };

struct Lanes {
  std::vector<double> free_at;
  std::vector<std::int64_t> last;  // the task that ran last on the lane, -1 when none
  std::vector<double> busy;
  explicit Lanes(int n) : free_at(static_cast<std::size_t>(n), 0.0), last(static_cast<std::size_t>(n), -1), busy(static_cast<std::size_t>(n), 0.0) {}
  int earliest() const {
    return static_cast<int>(std::min_element(free_at.begin(), free_at.end()) - free_at.begin());
  }
};

// Where every task ran: its start and end, the lane (core or cluster) it took, what it waited for.
struct Placement {
  std::vector<double> start, end;
  std::vector<std::int64_t> pred;
  std::vector<Wait> wait;
  std::vector<int> lane_of;
  std::vector<double> site_end;
  std::vector<double> busy_aic, busy_aiv;  // per core
};

// Places every task in dispatch order (the first free core of its kind, once its producers are done and
// it is submitted), each taking `duration[site][task]`.
Placement place(const cost::ScheduleCost& cost, const DeviceSpec& spec, const std::vector<std::int64_t>& base,
                const std::vector<std::vector<double>>& duration) {
  const auto& sites = cost.kernels;
  const std::size_t total = static_cast<std::size_t>(base.back());
  Placement p;
  p.start.assign(total, 0.0);
  p.end.assign(total, 0.0);
  p.pred.assign(total, -1);
  p.wait.assign(total, Wait::None);
  p.lane_of.assign(total, 0);
  p.site_end.assign(sites.size(), 0.0);
  std::vector<std::int64_t> site_last(sites.size(), -1);
  Lanes aic(spec.aic), aiv(spec.aiv);
  std::int64_t launches = 0;  // submits so far: a pl.spmd dispatch's blocks share one
  for (const auto& [s, i] : dispatchOrder(cost)) {
    const std::size_t id = static_cast<std::size_t>(base[static_cast<std::size_t>(s)] + i);
    const cost::KernelCost& k = sites[static_cast<std::size_t>(s)];
    if (i % std::max<std::int64_t>(1, k.blocks) == 0) ++launches;
    double ready = static_cast<double>(launches - 1) * spec.submit_us;
    Wait why = ready > 0 ? Wait::Submit : Wait::None;
    std::int64_t from = -1;
    for (const cost::SiteDependency& d : k.after) {
      const std::size_t ds = static_cast<std::size_t>(d.site);
      std::int64_t producer = site_last[ds];
      double t = p.site_end[ds];
      if (d.pairwise && i < sites[ds].dispatches.value_or(0)) {
        producer = base[ds] + i;
        t = p.end[static_cast<std::size_t>(producer)];
      }
      if (producer >= 0 && t >= ready) {
        ready = t;
        why = Wait::Producer;
        from = producer;
      }
    }
    // The core: the first free one of the task's kind; a mixed task takes a cluster (AIC c, AIV 2c, 2c+1).
    int lane = 0;
    double free_at = 0;
    std::int64_t core_last = -1;
    if (k.core == "MIX") {
      double best = -1;
      for (int c = 0; c < spec.aic; ++c) {
        double f = aic.free_at[static_cast<std::size_t>(c)];
        for (int v = 2 * c; v < 2 * c + 2 && v < spec.aiv; ++v) f = std::max(f, aiv.free_at[static_cast<std::size_t>(v)]);
        if (best < 0 || f < best) {
          best = f;
          lane = c;
        }
      }
      free_at = best;
      core_last = aic.last[static_cast<std::size_t>(lane)];
    } else {
      Lanes& pool = k.core == "AIV" ? aiv : aic;
      lane = pool.earliest();
      free_at = pool.free_at[static_cast<std::size_t>(lane)];
      core_last = pool.last[static_cast<std::size_t>(lane)];
    }
    if (free_at > ready) {
      ready = free_at;
      why = Wait::Core;
      from = core_last;
    }
    const double d = duration[static_cast<std::size_t>(s)][static_cast<std::size_t>(i)];
    p.start[id] = ready;
    p.end[id] = ready + d;
    p.pred[id] = why == Wait::Submit ? -1 : from;
    p.wait[id] = why;
    p.lane_of[id] = lane;
    auto occupy = [&](Lanes& pool, int l) {
      pool.free_at[static_cast<std::size_t>(l)] = p.end[id];
      pool.last[static_cast<std::size_t>(l)] = static_cast<std::int64_t>(id);
      pool.busy[static_cast<std::size_t>(l)] += d;
    };
    if (k.core == "MIX") {
      occupy(aic, lane);
      for (int v = 2 * lane; v < 2 * lane + 2 && v < spec.aiv; ++v) occupy(aiv, v);
    } else {
      occupy(k.core == "AIV" ? aiv : aic, lane);
    }
    if (p.end[id] >= p.site_end[static_cast<std::size_t>(s)]) {
      p.site_end[static_cast<std::size_t>(s)] = p.end[id];
      site_last[static_cast<std::size_t>(s)] = static_cast<std::int64_t>(id);
    }
  }
  p.busy_aic = std::move(aic.busy);
  p.busy_aiv = std::move(aiv.busy);
  return p;
}

// Per task, how many tasks streamed from the HBM at once while it ran (its site's and other sites'): the
// count whose share of the bandwidth equals the share the task got on average (the harmonic mean of the
// count over its run, weighted by time). A site runs beside another when neither waits for the other
// (a layer's q and k/v projections): both stream from the one HBM; the last wave of a site with more
// tasks than cores streams beside fewer tasks than its first.
std::vector<double> sideBySide(const Placement& p) {
  const std::size_t total = p.start.size();
  std::vector<std::pair<double, int>> events;
  events.reserve(2 * total);
  for (std::size_t id = 0; id < total; ++id) {
    if (p.end[id] <= p.start[id]) continue;
    events.emplace_back(p.start[id], 1);
    events.emplace_back(p.end[id], -1);
  }
  std::sort(events.begin(), events.end());
  // The share of the bandwidth one running task gets (1 / the running count), integrated over time, at
  // each event time.
  std::vector<double> times, integral;
  double area = 0, last = 0;
  int running = 0;
  for (const auto& [t, delta] : events) {
    if (running > 0) area += (t - last) / running;
    last = t;
    running += delta;
    if (times.empty() || times.back() != t) {
      times.push_back(t);
      integral.push_back(area);
    }
  }
  auto at = [&](double t) {
    const std::size_t i = static_cast<std::size_t>(std::lower_bound(times.begin(), times.end(), t) - times.begin());
    return i < integral.size() ? integral[i] : area;
  };
  std::vector<double> out(total, 0.0);
  for (std::size_t id = 0; id < total; ++id) {
    const double d = p.end[id] - p.start[id];
    const double share = d > 0 ? at(p.end[id]) - at(p.start[id]) : 0;
    out[id] = share > 0 ? d / share : 0;
  }
  return out;
}

// The tasks of a site of `tasks` streaming at once if it ran alone in waves of one task per core
// (`lanes`): every task of a full wave beside `lanes`, a task of the last wave beside what is left.
std::vector<int> waveSharing(std::int64_t tasks, int lanes) {
  std::vector<int> out(static_cast<std::size_t>(std::max<std::int64_t>(tasks, 0)), 1);
  const std::int64_t per_wave = std::max(1, lanes);
  for (std::int64_t i = 0; i < tasks; ++i) {
    const std::int64_t wave_start = i / per_wave * per_wave;
    out[static_cast<std::size_t>(i)] = static_cast<int>(std::min(per_wave, tasks - wave_start));
  }
  return out;
}

}  // namespace

DeviceTime deviceTime(const cost::ScheduleCost& cost, const DeviceSpec& spec) {
  DeviceTime out;
  out.aic = spec.aic;
  out.aiv = spec.aiv;
  out.unknown = cost.unknown;
  const auto& sites = cost.kernels;
  std::vector<std::int64_t> base(sites.size() + 1, 0);
  bool known = cost.unknown.empty();
  // Per task, the tasks streaming from GM at once: its site's tasks in the same wave (a core each).
  std::vector<std::vector<int>> sharing(sites.size());
  for (std::size_t s = 0; s < sites.size(); ++s) {
    const cost::KernelCost& k = sites[s];
    SiteTime st;
    st.kernel = k.kernel;
    st.core = k.core;
    st.tasks = k.dispatches.value_or(0);
    const int lanes = k.core == "AIV" ? spec.aiv : spec.aic;
    sharing[s] = waveSharing(st.tasks, lanes);
    if (!k.dispatches || !k.work_per_task) {
      if (known) out.unknown.push_back("the work of kernel " + k.kernel + "'s tasks is not static");
      known = false;
    }
    base[s + 1] = base[s] + st.tasks;
    out.sites.push_back(std::move(st));
  }
  // Every task's duration under its sharing; tasks that work alike are timed once per sharing count.
  std::vector<std::vector<double>> duration(sites.size());
  auto durations = [&]() {
    for (std::size_t s = 0; s < sites.size(); ++s) {
      const cost::KernelCost& k = sites[s];
      SiteTime& st = out.sites[s];
      duration[s].assign(static_cast<std::size_t>(st.tasks), 0.0);
      // The task the site reports: its largest, in its first (fullest) wave.
      st.largest = taskTime(*k.work_per_task, spec, k.core, sharing[s].empty() ? 1 : sharing[s].front());
      const bool each = !k.task_work.empty() && static_cast<std::int64_t>(k.task_work.size()) == st.tasks;
      std::map<int, double> alike;
      for (std::size_t i = 0; i < duration[s].size(); ++i) {
        const int n = sharing[s][i];
        if (each) {
          duration[s][i] = taskTime(k.task_work[i], spec, k.core, n).task;
        } else {
          auto [it, fresh] = alike.try_emplace(n, 0.0);
          if (fresh) it->second = taskTime(*k.work_per_task, spec, k.core, n).task;
          duration[s][i] = it->second;
        }
      }
    }
  };
  out.tasks = base.back();
  std::int64_t submits = 0;
  for (const cost::KernelCost& k : sites) submits += (k.dispatches.value_or(0) + k.blocks - 1) / std::max<std::int64_t>(1, k.blocks);
  out.submit_us = static_cast<double>(submits) * spec.submit_us;
  if (!known) return out;
  if (out.tasks > kSimulatedTaskLimit) {
    out.unknown.push_back(std::to_string(out.tasks) + " tasks: more than the " + std::to_string(kSimulatedTaskLimit) +
                          " the model places one by one");
    return out;
  }
  durations();
  Placement placed = place(cost, spec, base, duration);
  // Tasks that ran beside others shared the HBM with them too: they are timed again under the count
  // that ran at once, halfway from the last guess each pass (a task that slows down overlaps more),
  // until the counts settle, at most kSharingPasses times. Never fewer than its own wave of its site.
  const std::vector<std::vector<int>> own = sharing;
  for (int pass = 0; pass < kSharingPasses; ++pass) {
    const std::vector<double> measured = sideBySide(placed);
    bool changed = false;
    for (std::size_t s = 0; s < sites.size(); ++s)
      for (std::size_t i = 0; i < sharing[s].size(); ++i) {
        const double m = measured[static_cast<std::size_t>(base[s]) + i];
        const int next = std::max(own[s][i], static_cast<int>(std::lround((sharing[s][i] + m) / 2)));
        if (next != sharing[s][i]) changed = true;
        sharing[s][i] = next;
      }
    if (!changed) break;
    durations();
    placed = place(cost, spec, base, duration);
  }
  const std::size_t total = static_cast<std::size_t>(out.tasks);
  const std::vector<double>& start = placed.start;
  const std::vector<double>& end = placed.end;
  const std::vector<std::int64_t>& pred = placed.pred;
  const std::vector<Wait>& wait = placed.wait;
  const std::vector<int>& lane_of = placed.lane_of;
  for (std::size_t s = 0; s < sites.size(); ++s) {
    SiteTime& st = out.sites[s];
    for (std::int64_t id = base[s]; id < base[s + 1]; ++id) {
      const std::size_t i = static_cast<std::size_t>(id);
      st.busy_us += end[i] - start[i];
      st.first_start_us = id == base[s] ? start[i] : std::min(st.first_start_us, start[i]);
    }
    st.last_end_us = placed.site_end[s];
  }
  double makespan = 0;
  std::int64_t last = -1;
  for (std::size_t id = 0; id < total; ++id)
    if (end[id] >= makespan) {
      makespan = end[id];
      last = static_cast<std::int64_t>(id);
    }
  out.total_us = makespan;
  auto busy = [](const std::vector<double>& lanes) {
    double b = 0;
    for (double x : lanes) b += x;
    return b;
  };
  if (makespan > 0) {
    out.aic_utilisation = busy(placed.busy_aic) / (spec.aic * makespan);
    out.aiv_utilisation = busy(placed.busy_aiv) / (spec.aiv * makespan);
  }
  // The site of a task.
  auto site_of = [&](std::int64_t id) {
    return static_cast<int>(std::upper_bound(base.begin(), base.end(), id) - base.begin()) - 1;
  };
  // The critical path: from the last task to finish back along what each one waited for.
  std::vector<std::int64_t> path;
  for (std::int64_t id = last; id >= 0; id = pred[static_cast<std::size_t>(id)]) path.push_back(id);
  std::reverse(path.begin(), path.end());
  std::vector<bool> critical(total, false);
  for (std::int64_t id : path) {
    critical[static_cast<std::size_t>(id)] = true;
    const int s = site_of(id);
    const double d = end[static_cast<std::size_t>(id)] - start[static_cast<std::size_t>(id)];
    out.sites[static_cast<std::size_t>(s)].critical_us += d;
    if (out.critical.empty() || out.critical.back().kernel != sites[static_cast<std::size_t>(s)].kernel) {
      CriticalStep step;
      step.kernel = sites[static_cast<std::size_t>(s)].kernel;
      const Wait w = wait[static_cast<std::size_t>(id)];
      const std::int64_t p = pred[static_cast<std::size_t>(id)];
      step.waits = w == Wait::Submit ? "submit" : w == Wait::Core ? "core" : w == Wait::Producer && p >= 0 ? sites[static_cast<std::size_t>(site_of(p))].kernel : "";
      out.critical.push_back(step);
    }
    out.critical.back().tasks += 1;
    out.critical.back().us += d;
  }
  // The timeline: every task when few, else the critical path and an even sample of the rest.
  const std::size_t stride = total <= kTimelineBars ? 1 : (total + kTimelineBars - 1) / kTimelineBars;
  for (std::size_t id = 0; id < total; ++id) {
    if (!critical[id] && id % stride != 0) continue;
    const int s = site_of(static_cast<std::int64_t>(id));
    TaskBar b;
    b.site = s;
    b.index = static_cast<std::int64_t>(id) - base[static_cast<std::size_t>(s)];
    const std::string& core = sites[static_cast<std::size_t>(s)].core;
    b.lane = (core == "MIX" ? "cluster " : core == "AIV" ? "AIV " : "AIC ") + std::to_string(lane_of[id]);
    b.start_us = start[id];
    b.end_us = end[id];
    b.critical = critical[id];
    out.bars.push_back(std::move(b));
  }
  return out;
}

}  // namespace portcheck::perf

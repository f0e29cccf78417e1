#!/usr/bin/env python3
"""Writes a generated RxSwift app of N files (about 200 lines each), to measure streams-trace map.

Usage: Benchmarks/static-map-app.py N OUT_FOLDER
Each file is one screen's view model: 5 subjects and relays, 5 derived sequences, subscriptions
that send into the next screen's store (cross-file chains), and plain Swift code around them.
Guides/Performance.md ("The static map") used N = 1000.
"""
import os
import sys

count, out = int(sys.argv[1]), sys.argv[2]
os.makedirs(out, exist_ok=True)
for i in range(count):
  nxt = (i + 1) % count
  lines = [
    "import RxSwift",
    "import RxCocoa",
    "",
    f"final class Screen{i}Store {{",
    "  let added = PublishRelay<String>()",
    "  let items = BehaviorRelay<[String]>(value: [])",
    "}",
    "",
    f"final class Screen{i}ViewModel {{",
    "  let query = PublishSubject<String>()",
    "  let refresh = PublishSubject<Void>()",
    "  let selection = BehaviorSubject<Int>(value: 0)",
    "  let loading = BehaviorRelay<Bool>(value: false)",
    "  let errors = PublishRelay<String>()",
    f"  let store = Screen{i}Store()",
    f"  let next = Screen{nxt}Store()",
    "  let results: Observable<[String]>",
    "  let count: Observable<Int>",
    "  let title: Driver<String>",
    "  let valid: Observable<Bool>",
    "  let merged: Observable<String>",
    "  private let disposeBag = DisposeBag()",
    "",
    "  init(scheduler: SchedulerType) {",
    "    results = query",
    "      .debounce(.milliseconds(300), scheduler: scheduler)",
    "      .distinctUntilChanged()",
    "      .map { [$0] }",
    "      .share(replay: 1)",
    "    count = results.map { $0.count }",
    "    title = count.map { \"\\($0) results\" }.asDriver(onErrorJustReturn: \"\")",
    "    valid = Observable.combineLatest(query, selection) { !$0.isEmpty && $1 >= 0 }",
    "    merged = Observable.merge(query, errors.asObservable())",
    "    results",
    "      .subscribe(onNext: { [weak self] items in",
    "        self?.next.items.accept(items)",
    "        self?.loading.accept(false)",
    "      })",
    "      .disposed(by: disposeBag)",
    "    refresh",
    "      .withLatestFrom(query)",
    "      .bind(to: next.added)",
    "      .disposed(by: disposeBag)",
    "    store.added",
    "      .subscribe(onNext: { [weak self] item in self?.record(item) })",
    "      .disposed(by: disposeBag)",
    "  }",
    "",
    "  private func record(_ item: String) {",
    "    errors.accept(item)",
    "  }",
    "",
  ]
  # Plain Swift code: what most of an app's lines are.
  for j in range(15):
    lines += [
      f"  func helper{j}(_ values: [Int]) -> Int {{",
      "    var total = 0",
      "    for value in values where value % 2 == 0 {",
      "      total += value * 2",
      "    }",
      "    let names = values.map { \"item \\($0)\" }.filter { !$0.isEmpty }",
      "    return total + names.count",
      "  }",
      "",
    ]
  lines.append("}")
  with open(os.path.join(out, f"Screen{i}ViewModel.swift"), "w") as f:
    f.write("\n".join(lines) + "\n")

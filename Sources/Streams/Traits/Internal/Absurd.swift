/// Retypes an element-less sequence's elements: `observable.map(absurd)` turns an
/// `Observable<Never>` into an `Observable<Result>`. Never called, as there is no `Never` value.
func absurd<Result>(_ never: Never) -> Result {}

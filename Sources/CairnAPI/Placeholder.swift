enum CairnAPIPlaceholder {}

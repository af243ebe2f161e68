-- The description weighs C now (DataHub's boost 1, as most other text); B is for words of boost 2-5, D under 1.
UPDATE "search_text" SET "words" = ts_filter("words", '{a,c,d}') || setweight(ts_filter("words", '{b}'), 'C') WHERE length(ts_filter("words", '{b}')) > 0;

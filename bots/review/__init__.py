"""The hand review: each decision of one seat judged by Hard's search.

``review_hand`` (``bots.review.evaluator``) rebuilds what a seat knew at
each of its decisions from a finished hand's record, asks Hard's search
(``bots.search``, ``bots.passsearch``, ``bots.widow``) for its value of
every option, and reports the chosen option, the best one and the expected
loss in points of the choice against the best, labelled by
``bots.review.labels``. ``summarize`` turns decisions into an accuracy.
"""

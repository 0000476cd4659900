"""The web flow practice's views and review's views share: above both apps' services and
selectors, below the views (a views module imports this package, never another views module).
"""

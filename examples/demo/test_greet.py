import unittest

from greet import greeting


class GreetingTest(unittest.TestCase):
    def test_names_the_person(self):
        self.assertEqual(greeting("Ada"), "Hello, Ada!")


if __name__ == "__main__":
    unittest.main()
